/** ioredis-mock's class (typed loosely: ioredis-mock-streams types the public class itself). */
declare const RedisMock: {
  new (...args: any[]): any;
  readonly prototype: any;
  readonly Pipeline: any;
  readonly Cluster: any;
  [key: string]: any;
};
export = RedisMock;
