import type { Redis } from 'ioredis';

/**
 * The Lua scripts of the Redis store. Each runs atomically on the server (EVALSHA through ioredis
 * `defineCommand`, which falls back to EVAL after a server restart empties the script cache). Time comes
 * from the server's TIME, so processes on machines with skewed clocks still agree. Requires Redis >= 5
 * (effects replication of scripts that read TIME).
 */

const NOW_MS = `local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`;

/** The open window of a key: used count and ms left; a key without TTL is dropped. */
const OPEN_WINDOW = `local function openWindow(key)
  local ttl = redis.call('PTTL', key)
  if ttl > 0 then return tonumber(redis.call('GET', key) or '0'), ttl end
  if ttl ~= -2 then redis.call('DEL', key) end
  return 0, 0
end`;

/** KEYS: requests, tokens, slots. ARGV: rpm, tpm, concurrency, windowMs, slot ('' checks without taking one), slotTtlMs. */
const ADMIT = `${OPEN_WINDOW}
${NOW_MS}
local rpm, tpm, conc = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local window, ttl = tonumber(ARGV[4]), tonumber(ARGV[6])
local rUsed, rTtl, tUsed, tTtl, inUse = 0, 0, 0, 0, 0
if rpm > 0 then rUsed, rTtl = openWindow(KEYS[1]) end
if tpm > 0 then tUsed, tTtl = openWindow(KEYS[2]) end
local now = 0
if conc > 0 then
  now = nowMs()
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  inUse = redis.call('ZCARD', KEYS[3])
end
local verdict = 0
if rpm > 0 and rUsed >= rpm then verdict = 1
elseif tpm > 0 and tUsed >= tpm then verdict = 2
elseif conc > 0 and inUse >= conc then verdict = 3 end
if verdict == 0 then
  if rpm > 0 then
    rUsed = redis.call('INCR', KEYS[1])
    if rUsed == 1 then
      redis.call('PEXPIRE', KEYS[1], window)
      rTtl = window
    end
  end
  if conc > 0 and ARGV[5] ~= '' then
    redis.call('ZADD', KEYS[3], now + ttl, ARGV[5])
    redis.call('PEXPIRE', KEYS[3], ttl)
    inUse = inUse + 1
  end
end
return {verdict, rUsed, rTtl, tUsed, tTtl, inUse}`;

/** KEYS: tokens. ARGV: amount, windowMs. */
const CHARGE = `local used = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return used`;

/** KEYS: slots. ARGV: slotTtlMs, slot... (re-adds slots lost by a server restart). */
const TOUCH = `${NOW_MS}
local now = nowMs()
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + ttl, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ttl)
return #ARGV - 1`;

/** KEYS: target. ARGV: leaseMs, staleMs. Returns {state (0 ready, 1 cooling, 2 probe), failures, retryInMs}. */
const CHECK_TARGET = `${NOW_MS}
local v = redis.call('HMGET', KEYS[1], 'failures', 'until', 'probe')
local failures = tonumber(v[1] or '0')
local untilMs = tonumber(v[2] or '0')
if untilMs == 0 then return {0, failures, 0} end
local now = nowMs()
if now < untilMs then return {1, failures, untilMs - now} end
local probe = tonumber(v[3] or '0')
if now < probe then return {1, failures, probe - now} end
redis.call('HSET', KEYS[1], 'probe', now + tonumber(ARGV[1]))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]))
return {2, failures, 0}`;

/** KEYS: target. ARGV: threshold, cooldownMs, staleMs. A cooldown under way is not extended. */
const FAIL_TARGET = `${NOW_MS}
local now = nowMs()
local threshold, cooldown = tonumber(ARGV[1]), tonumber(ARGV[2])
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local untilMs = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
redis.call('PEXPIRE', KEYS[1], cooldown + tonumber(ARGV[3]))
if now < untilMs then return {1, failures, untilMs - now} end
if threshold > 0 and failures >= threshold then
  redis.call('HSET', KEYS[1], 'until', now + cooldown, 'probe', 0)
  return {1, failures, cooldown}
end
return {0, failures, 0}`;

type Args = (string | number)[];

/** The scripts bound to one connection. */
export interface LimitScripts {
  admit(keys: readonly [string, string, string], ...args: Args): Promise<number[]>;
  charge(key: string, ...args: Args): Promise<number>;
  touch(key: string, ...args: Args): Promise<number>;
  checkTarget(key: string, ...args: Args): Promise<number[]>;
  failTarget(key: string, ...args: Args): Promise<number[]>;
}

type Scripted = Redis & Record<string, (...args: Args) => Promise<any>>;

/** Registers the scripts on a connection (defineCommand) and returns typed callers. */
export function defineLimitScripts(redis: Redis): LimitScripts {
  redis.defineCommand('gwAdmit', { numberOfKeys: 3, lua: ADMIT });
  redis.defineCommand('gwCharge', { numberOfKeys: 1, lua: CHARGE });
  redis.defineCommand('gwTouch', { numberOfKeys: 1, lua: TOUCH });
  redis.defineCommand('gwCheckTarget', { numberOfKeys: 1, lua: CHECK_TARGET });
  redis.defineCommand('gwFailTarget', { numberOfKeys: 1, lua: FAIL_TARGET });
  const r = redis as Scripted;
  return {
    admit: (keys, ...args) => r.gwAdmit(keys[0], keys[1], keys[2], ...args),
    charge: (key, ...args) => r.gwCharge(key, ...args),
    touch: (key, ...args) => r.gwTouch(key, ...args),
    checkTarget: (key, ...args) => r.gwCheckTarget(key, ...args),
    failTarget: (key, ...args) => r.gwFailTarget(key, ...args),
  };
}
