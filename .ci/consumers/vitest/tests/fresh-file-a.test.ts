// One of three files alike: see ./fresh-file.shared.ts
import { freshFileTests } from './fresh-file.shared';

await freshFileTests();
