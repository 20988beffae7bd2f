import { SCORE_SLOTS_PER_MS } from './redis-keys.js';

/**
 * One Lua script writes a batch of profiles and enforces the bounds, atomically: no other process
 * sees a profile without its index entries, or an index entry whose profile was evicted, and two
 * processes evicting at once cannot both remove (or both keep) the same oldest profiles.
 *
 * ARGV: prefix, lowest live score (older is expired), maxProfiles, maxAgeMs, then five values per
 * profile: token, time, expiry (epoch ms), index entry JSON, profile JSON.
 * Returns every token stored under the prefix once the batch is written (at most maxProfiles).
 */
export const WRITE_SCRIPT = `
local prefix, lowestLive, maxProfiles, maxAge = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local byTime, entries, seqKey = prefix .. 'by-time', prefix .. 'entries', prefix .. 'seq'
local touched = {}

local function remove(token)
  local entry = redis.call('HGET', entries, token)
  if entry then
    for _, index in ipairs(cjson.decode(entry).indexes) do redis.call('ZREM', prefix .. index, token) end
    redis.call('HDEL', entries, token)
  end
  redis.call('ZREM', byTime, token)
  redis.call('DEL', prefix .. 'profile:' .. token)
end

local count = (#ARGV - 4) / 5
local seq = redis.call('INCRBY', seqKey, count) - count
for i = 0, count - 1 do
  local at = 5 + i * 5
  local token, time, expiresAt, entry, profile = ARGV[at], tonumber(ARGV[at + 1]), ARGV[at + 2], ARGV[at + 3], ARGV[at + 4]
  remove(token)
  local score = string.format('%.0f', time * ${SCORE_SLOTS_PER_MS} + (seq + i) % ${SCORE_SLOTS_PER_MS})
  redis.call('SET', prefix .. 'profile:' .. token, profile, 'PXAT', expiresAt)
  redis.call('HSET', entries, token, entry)
  redis.call('ZADD', byTime, score, token)
  for _, index in ipairs(cjson.decode(entry).indexes) do
    redis.call('ZADD', prefix .. index, score, token)
    touched[prefix .. index] = true
  end
end

for _, token in ipairs(redis.call('ZRANGE', byTime, '-inf', '(' .. lowestLive, 'BYSCORE')) do remove(token) end
local excess = redis.call('ZCARD', byTime) - maxProfiles
if excess > 0 then
  for _, token in ipairs(redis.call('ZRANGE', byTime, 0, excess - 1)) do remove(token) end
end

-- Once nothing was written for maxAge, every profile has expired: so does every other key.
for _, key in ipairs({ byTime, entries, seqKey }) do redis.call('PEXPIRE', key, maxAge) end
for key in pairs(touched) do redis.call('PEXPIRE', key, maxAge) end
return redis.call('ZRANGE', byTime, 0, -1)
`;
