-- wrk script for scripts/bench. Environment:
--   BENCH_METHOD   GET or POST
--   BENCH_TOKENS   optional file of bearer tokens, one per line; each request takes the next one, and
--                  each wrk thread takes its own slice, so no token is sent twice in one run
--   BENCH_TOKEN_HEADER, BENCH_TOKEN_PREFIX  how a token is sent (default "Authorization: Bearer <token>");
--                  another system's line (scripts/bench --other) may want e.g. "authorization: <token>"
--   BENCH_ACCEPTED optional text that only the body of an accepted order contains, for a system that
--                  answers 200 either way: such answers are counted as accepted
-- At the end it prints one machine-readable line:
--   BENCH requests=N seconds=S rps=R p50_ms=A p99_ms=B socket_errors=E statuses=201:n,409:m [accepted=K]

local method = os.getenv("BENCH_METHOD") or "GET"
local token_file = os.getenv("BENCH_TOKENS")
local token_header = os.getenv("BENCH_TOKEN_HEADER") or "Authorization"
local token_prefix = os.getenv("BENCH_TOKEN_PREFIX") or "Bearer "
local accepted_text = os.getenv("BENCH_ACCEPTED")
if accepted_text == "" then accepted_text = nil end
local threads = {}
local counter = 1

function setup(thread)
  thread:set("id", counter)
  table.insert(threads, thread)
  counter = counter + 1
end

function init(args)
  statuses = {}
  accepted = 0
  tokens = {}
  if token_file and #token_file > 0 then
    local all = {}
    for line in io.lines(token_file) do
      if #line > 0 then table.insert(all, line) end
    end
    local n = tonumber(os.getenv("BENCH_THREADS") or "1") -- wrk -t, so the slices do not overlap
    for i = id, #all, n do table.insert(tokens, all[i]) end
  end
  next_token = 1
end

function request()
  local headers = {}
  if #tokens > 0 then
    headers[token_header] = token_prefix .. tokens[next_token]
    next_token = next_token % #tokens + 1
  end
  return wrk.format(method, nil, headers, nil)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if accepted_text and body and string.find(body, accepted_text, 1, true) then accepted = accepted + 1 end
end

function done(summary, latency, requests)
  local merged = {}
  local all_accepted = 0
  for _, thread in ipairs(threads) do
    local s = thread:get("statuses")
    for code, n in pairs(s) do merged[code] = (merged[code] or 0) + n end
    all_accepted = all_accepted + thread:get("accepted")
  end
  local parts = {}
  for code, n in pairs(merged) do table.insert(parts, code .. ":" .. n) end
  table.sort(parts)
  local seconds = summary.duration / 1e6
  local e = summary.errors
  -- socket errors only (connect, read, write, timeout); HTTP answers are in statuses
  io.write(string.format("BENCH requests=%d seconds=%.2f rps=%.1f p50_ms=%.2f p99_ms=%.2f socket_errors=%d statuses=%s%s\n",
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, e.connect + e.read + e.write + e.timeout, table.concat(parts, ","),
    accepted_text and (" accepted=" .. all_accepted) or ""))
end
