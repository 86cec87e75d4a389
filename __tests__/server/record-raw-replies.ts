/** Print a real server's raw replies to the raw-reply script as JSON (see raw-replies.ts). */
import { runRawScript } from './raw-replies';

const port = Number(process.argv[2]);
runRawScript(port).then(
  (results) => {
    process.stdout.write(`${JSON.stringify({ source: `redis-server on port ${port}`, results }, null, 1)}\n`);
  },
  (err) => {
    console.error(err);
    process.exitCode = 1;
  },
);
