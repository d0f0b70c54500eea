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

/**
 * A sliding request window: a sorted set of admitted requests (member -> when it stops counting). Returns
 * the requests in the window once the ones past their time are dropped.
 */
const REQUEST_LOG = `local function openCount(z, now)
  redis.call('ZREMRANGEBYSCORE', z, '-inf', now)
  return redis.call('ZCARD', z)
end`;

/**
 * A sliding token window: a hash (entry -> tokens, and `sum`, `seq`) and a sorted set (entry -> when it
 * stops counting). Entries past their time are dropped (a bounded number per call) and taken off `sum`.
 */
const TOKEN_LOG = `local function openLog(h, z, now)
  local gone = redis.call('ZRANGEBYSCORE', z, '-inf', now, 'LIMIT', 0, 1000)
  if #gone > 0 then
    local amounts = redis.call('HMGET', h, unpack(gone))
    local drop = 0
    for i = 1, #amounts do drop = drop + tonumber(amounts[i] or '0') end
    redis.call('HDEL', h, unpack(gone))
    redis.call('ZREM', z, unpack(gone))
    redis.call('HINCRBY', h, 'sum', -drop)
  end
  return tonumber(redis.call('HGET', h, 'sum') or '0')
end
local function addEntry(h, z, entry, tokens, now, window)
  if entry == '' then entry = '#' .. redis.call('HINCRBY', h, 'seq', 1) end
  redis.call('HSET', h, entry, tokens)
  redis.call('HINCRBY', h, 'sum', tokens)
  redis.call('ZADD', z, now + window, entry)
  redis.call('PEXPIRE', h, window)
  redis.call('PEXPIRE', z, window)
end
local function logReset(z, now, allowed)
  local edge
  if allowed then edge = redis.call('ZRANGE', z, -1, -1, 'WITHSCORES') else edge = redis.call('ZRANGE', z, 0, 0, 'WITHSCORES') end
  if #edge == 0 then return 0 end
  return math.max(0, tonumber(edge[2]) - now)
end`;

/**
 * KEYS: requests, token hash, token set, slots. ARGV: rpm, tpm, concurrency, windowMs, slot ('' checks
 * without taking one), slotTtlMs, request id (unique: the request's entry in the request window).
 */
const ADMIT = `${REQUEST_LOG}
${TOKEN_LOG}
${NOW_MS}
local rpm, tpm, conc = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local window, ttl = tonumber(ARGV[4]), tonumber(ARGV[6])
local rUsed, rTtl, tUsed, tTtl, inUse = 0, 0, 0, 0, 0
local now = nowMs()
if rpm > 0 then rUsed = openCount(KEYS[1], now) end
if tpm > 0 then tUsed = openLog(KEYS[2], KEYS[3], now) end
if conc > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
  inUse = redis.call('ZCARD', KEYS[4])
end
local verdict = 0
if rpm > 0 and rUsed >= rpm then verdict = 1
elseif tpm > 0 and tUsed >= tpm then verdict = 2
elseif conc > 0 and inUse >= conc then verdict = 3 end
if tpm > 0 then tTtl = logReset(KEYS[3], now, verdict ~= 2) end
if verdict == 0 and rpm > 0 then
  redis.call('ZADD', KEYS[1], now + window, ARGV[7])
  redis.call('PEXPIRE', KEYS[1], window)
  rUsed = rUsed + 1
end
if rpm > 0 then rTtl = logReset(KEYS[1], now, verdict == 0) end
if verdict == 0 then
  if conc > 0 and ARGV[5] ~= '' then
    redis.call('ZADD', KEYS[4], now + ttl, ARGV[5])
    redis.call('PEXPIRE', KEYS[4], ttl)
    inUse = inUse + 1
  end
end
return {verdict, rUsed, rTtl, tUsed, tTtl, inUse}`;

/** KEYS: token hash, token set. ARGV: amount, windowMs. */
const CHARGE = `${TOKEN_LOG}
${NOW_MS}
local now = nowMs()
openLog(KEYS[1], KEYS[2], now)
addEntry(KEYS[1], KEYS[2], '', tonumber(ARGV[1]), now, tonumber(ARGV[2]))
return 1`;

/**
 * KEYS: token hash, token set, budget. ARGV: tpm, entry, tokens, windowMs, budget limit (nano-USD, 0: no
 * budget), cost (nano-USD), budget TTL ms. Returns {verdict (0 ok, 1 tpm, 2 budget), tokens used, ms until
 * the token window resets (or admits again), nano-USD spent}.
 */
const RESERVE = `${TOKEN_LOG}
${NOW_MS}
local now = nowMs()
local tpm, tokens, window = tonumber(ARGV[1]), tonumber(ARGV[3]), tonumber(ARGV[4])
local limit, cost = tonumber(ARGV[5]), tonumber(ARGV[6])
local used, spent, reset = 0, 0, 0
if tpm > 0 then used = openLog(KEYS[1], KEYS[2], now) end
if limit > 0 then spent = tonumber(redis.call('GET', KEYS[3]) or '0') end
local verdict = 0
if tpm > 0 and used >= tpm then verdict = 1
elseif limit > 0 and (spent >= limit or spent + cost > limit) then verdict = 2 end
if verdict == 0 then
  if tpm > 0 and tokens > 0 then
    addEntry(KEYS[1], KEYS[2], ARGV[2], tokens, now, window)
    used = used + tokens
  end
  if limit > 0 then
    spent = redis.call('INCRBY', KEYS[3], cost)
    redis.call('PEXPIRE', KEYS[3], ARGV[7])
  end
end
if tpm > 0 then reset = logReset(KEYS[2], now, verdict ~= 1) end
return {verdict, used, reset, spent}`;

/**
 * KEYS: token hash, token set, budget. ARGV: tpm, entry, reserved tokens, tokens, windowMs, budget (1/0),
 * reserved nano-USD, cost nano-USD, budget TTL ms. An entry still in its window takes the real count; one
 * that has left charges only the excess, from now. The budget counter never goes below 0.
 */
const SETTLE = `${TOKEN_LOG}
${NOW_MS}
local now = nowMs()
if tonumber(ARGV[1]) > 0 then
  openLog(KEYS[1], KEYS[2], now)
  local reserved, tokens = tonumber(ARGV[3]), tonumber(ARGV[4])
  local held = redis.call('HGET', KEYS[1], ARGV[2])
  if held and tonumber(redis.call('ZSCORE', KEYS[2], ARGV[2]) or '0') > now then
    redis.call('HSET', KEYS[1], ARGV[2], tokens)
    redis.call('HINCRBY', KEYS[1], 'sum', tokens - tonumber(held))
  elseif tokens > reserved then
    addEntry(KEYS[1], KEYS[2], '', tokens - reserved, now, tonumber(ARGV[5]))
  end
end
if ARGV[6] == '1' then
  local delta = tonumber(ARGV[8]) - tonumber(ARGV[7])
  if delta ~= 0 then
    local spent = redis.call('INCRBY', KEYS[3], delta)
    if spent < 0 then redis.call('SET', KEYS[3], 0) end
    redis.call('PEXPIRE', KEYS[3], ARGV[9])
  end
end
return 1`;

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
  admit(keys: readonly string[], ...args: Args): Promise<number[]>;
  charge(keys: readonly string[], ...args: Args): Promise<number>;
  reserve(keys: readonly string[], ...args: Args): Promise<number[]>;
  settle(keys: readonly string[], ...args: Args): Promise<number>;
  touch(key: string, ...args: Args): Promise<number>;
  checkTarget(key: string, ...args: Args): Promise<number[]>;
  failTarget(key: string, ...args: Args): Promise<number[]>;
}

type Scripted = Redis & Record<string, (...args: Args) => Promise<any>>;

/** Registers the scripts on a connection (defineCommand) and returns typed callers. */
export function defineLimitScripts(redis: Redis): LimitScripts {
  redis.defineCommand('gwAdmit', { numberOfKeys: 4, lua: ADMIT });
  redis.defineCommand('gwCharge', { numberOfKeys: 2, lua: CHARGE });
  redis.defineCommand('gwReserve', { numberOfKeys: 3, lua: RESERVE });
  redis.defineCommand('gwSettle', { numberOfKeys: 3, lua: SETTLE });
  redis.defineCommand('gwTouch', { numberOfKeys: 1, lua: TOUCH });
  redis.defineCommand('gwCheckTarget', { numberOfKeys: 1, lua: CHECK_TARGET });
  redis.defineCommand('gwFailTarget', { numberOfKeys: 1, lua: FAIL_TARGET });
  const r = redis as Scripted;
  return {
    admit: (keys, ...args) => r.gwAdmit(...keys, ...args),
    charge: (keys, ...args) => r.gwCharge(...keys, ...args),
    reserve: (keys, ...args) => r.gwReserve(...keys, ...args),
    settle: (keys, ...args) => r.gwSettle(...keys, ...args),
    touch: (key, ...args) => r.gwTouch(key, ...args),
    checkTarget: (key, ...args) => r.gwCheckTarget(key, ...args),
    failTarget: (key, ...args) => r.gwFailTarget(key, ...args),
  };
}
