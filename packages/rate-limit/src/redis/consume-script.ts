/**
 * One check of a `RedisStore`, atomically: the same sums as `store/policy-steps.ts`, so a limit
 * counts the same in memory and in Redis. Every key's state is read, and written back only when
 * every check allows (all or nothing), with an expiry after which a fresh state says the same.
 *
 * KEYS: one per check. ARGV: now (epoch ms), then four values per check: policy (`f`ixed window,
 * `s`liding window, `t`oken bucket), limit, interval (ms), cost.
 * State: the string `at:value:previous`. Returns four integers per check: allowed (1/0),
 * remaining, reset after (ms), retry after (ms).
 */
export const CONSUME_SCRIPT = `
local clockNow = tonumber(ARGV[1])
local results, writes, all = {}, {}, true
for i = 1, #KEYS do
  local base = 1 + (i - 1) * 4
  local policy, limit, interval, cost = ARGV[base + 1], tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3]), tonumber(ARGV[base + 4])
  local at, value, previous
  local raw = redis.call('GET', KEYS[i])
  if raw then
    local a, v, p = string.match(raw, '^([^:]+):([^:]+):([^:]+)$')
    at, value, previous = tonumber(a), tonumber(v), tonumber(p)
  end
  -- A clock reading behind the state's time counts at that time: it never resets a window.
  local now = clockNow
  if at and now < at then now = at end
  local allowed, remaining, reset, retry, state, life = 1, 0, 0, 0, nil, 0
  if policy == 'f' then
    if not at or now >= at + interval then at, value = now, 0 end
    reset = at + interval - now
    if value + cost > limit then
      allowed, remaining = 0, limit - value
      if cost > limit then retry = interval else retry = reset end
    else
      remaining = limit - value - cost
      state, life = at .. ':' .. (value + cost) .. ':0', reset
    end
  elseif policy == 's' then
    if not at or now >= at + 2 * interval then at, value, previous = now, 0, 0
    elseif now >= at + interval then at, previous, value = at + interval, value, 0 end
    local estimate = previous * (interval - (now - at)) / interval + value
    reset = at + interval - now
    if estimate + cost > limit then
      allowed, remaining = 0, math.max(0, math.floor(limit - estimate))
      if cost > limit then retry = interval
      elseif value + cost <= limit and previous > 0 then
        retry = math.max(1, at + math.ceil(interval * (1 - (limit - value - cost) / previous)) - now)
      else retry = at + interval - now + math.ceil(interval * (1 - (limit - cost) / value)) end
    else
      remaining = math.floor(limit - estimate - cost)
      state, life = at .. ':' .. (value + cost) .. ':' .. previous, at + 2 * interval - now
    end
  else
    local tokens = limit
    if at then tokens = math.min(limit, value + math.max(0, now - at) * limit / interval) end
    if tokens < cost then
      allowed, remaining = 0, math.floor(tokens)
      reset = math.ceil((limit - tokens) * interval / limit)
      if cost > limit then retry = interval else retry = math.max(1, math.ceil((cost - tokens) * interval / limit)) end
    else
      local left = tokens - cost
      remaining, reset = math.floor(left), math.ceil((limit - left) * interval / limit)
      state, life = now .. ':' .. string.format('%.17g', left) .. ':0', reset
    end
  end
  if allowed == 0 then all = false end
  writes[i] = { state, life }
  local at4 = (i - 1) * 4
  results[at4 + 1], results[at4 + 2], results[at4 + 3], results[at4 + 4] = allowed, remaining, reset, retry
end
if all then
  for i = 1, #KEYS do
    local state, life = writes[i][1], writes[i][2]
    if state then redis.call('SET', KEYS[i], state, 'PX', math.max(1, life)) end
  end
end
return results
`;
