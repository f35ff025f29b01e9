import { EventEmitter } from 'node:events';
import { describe, expect, it } from '@jest/globals';
import type { RedisService } from '../redis/redis.service.js';
import { RedisBus } from './redis-bus.js';

/** A Redis stand-in: PUBLISH records the message (or fails), the subscriber connection is an emitter. */
function fakeRedis(failing: () => boolean) {
  const published: Array<{ channel: string; body: string }> = [];
  const subscribed: string[][] = [];
  const subscriber = Object.assign(new EventEmitter(), {
    status: 'connecting',
    subscribe: async (...channels: string[]) => {
      subscribed.push(channels);
      return channels.length;
    },
  });
  const client = {
    publish: async (channel: string, body: string) => {
      if (failing()) throw new Error('Command timed out');
      published.push({ channel, body });
      return 1;
    },
  };
  return { published, subscribed, redis: { subscriber, client, ready: true } as unknown as RedisService, subscriber };
}

describe('RedisBus', () => {
  it("delivers other instances' messages as remote, ignores its own echo, and reports lost messages", async () => {
    let failing = false;
    const a = fakeRedis(() => failing);
    const sender = new RedisBus(a.redis, 't:');
    const b = fakeRedis(() => false);
    const receiver = new RedisBus(b.redis, 't:');
    const got: Array<[number, boolean]> = [];
    let gaps = 0;
    receiver.subscribe<number>('odds', (p, remote) => got.push([p, remote]));
    receiver.onGap('odds', () => gaps++);
    receiver.onGap('other', () => (gaps += 100));

    const relay = () => {
      for (const m of a.published.splice(0)) b.subscriber.emit('message', m.channel, m.body);
    };
    sender.publish('odds', 1);
    sender.publish('odds', 2);
    await Promise.resolve();
    relay();
    expect(got).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(gaps).toBe(0);

    // The third publish times out: the receiver learns of it when the fourth arrives.
    failing = true;
    sender.publish('odds', 3);
    await new Promise((r) => setImmediate(r));
    failing = false;
    expect(sender.healthy()).toBe(false);
    sender.publish('odds', 4);
    await new Promise((r) => setImmediate(r));
    relay();
    expect(got.map(([p]) => p)).toEqual([1, 2, 4]);
    expect(gaps).toBe(1);
    expect(sender.healthy()).toBe(true);

    // A message coming back to the instance that sent it is not delivered twice.
    const echo = JSON.stringify({ o: receiver.instanceId, n: 1, p: 99 });
    b.subscriber.emit('message', 't:bus:odds', echo);
    expect(got).toHaveLength(3);
  });

  it('subscribes only on a ready connection, and every topic again each time it becomes ready', () => {
    const r = fakeRedis(() => false);
    const bus = new RedisBus(r.redis, 'p:');
    bus.subscribe('odds', () => undefined);
    bus.subscribe('keys', () => undefined);
    expect(r.subscribed).toEqual([]); // still connecting: a SUBSCRIBE now would break the ready check
    r.subscriber.status = 'ready';
    r.subscriber.emit('ready');
    expect(r.subscribed).toEqual([['p:bus:odds', 'p:bus:keys']]);
    bus.subscribe('splits', () => undefined);
    bus.subscribe('odds', () => undefined);
    expect(r.subscribed).toEqual([['p:bus:odds', 'p:bus:keys'], ['p:bus:splits']]);
    r.subscriber.emit('ready'); // a reconnect
    expect(r.subscribed.at(-1)).toEqual(['p:bus:odds', 'p:bus:keys', 'p:bus:splits']);
  });
});
