-- wrk script for scripts/bench. Environment:
--   BENCH_METHOD   GET or POST
--   BENCH_TOKENS   optional file of bearer tokens, one per line; each request takes the next one, and
--                  each wrk thread takes its own slice, so no token is sent twice in one run
--   BENCH_TOKENS_SPLIT=1  BENCH_TOKENS is split already, one file per thread: thread i (from 1) reads
--                  BENCH_TOKENS.<i - 1, four digits> (split -n r/THREADS -d -a 4), so that no thread reads
--                  the others' tokens (at 200 threads, each reading every token took seconds of the line)
--   BENCH_TOKEN_HEADER, BENCH_TOKEN_PREFIX  how a token is sent (default "Authorization: Bearer <token>");
--                  another system's line (scripts/bench --other) may want e.g. "authorization: <token>"
--   BENCH_ACCEPTED optional text that only the body of an accepted order contains, for a system that
--                  answers 200 either way: such answers are counted as accepted
--   BENCH_HANDSHAKE=1  purchases with tickets (seckill.tickets.required): the URL is the purchase, and each new
--                  shopper first asks a ticket (POST <purchase path>/ticket, no body: the voucher must ask no
--                  challenge, challengeDifficulty 0, since wrk cannot solve a proof of work), then buys with it
--                  (Seckill-Ticket). Per thread a small state machine: request() sends a purchase for a
--                  (token, ticket) pair that an earlier ticket answer queued, else a ticket request for the next
--                  token; response() of a ticket request queues the pair. wrk does not tell response() which
--                  connection or request it answers, so the thread remembers the one request it has in flight:
--                  this needs one connection per thread (wrk -t N -c N), which BENCH_CONNECTIONS must show.
-- At the end it prints one machine-readable line:
--   BENCH requests=N seconds=S rps=R p50_ms=A p99_ms=B socket_errors=E statuses=201:n,409:m [accepted=K]
-- (a 503 is counted by its problem code: 503(order-unconfirmed):n)
-- With BENCH_HANDSHAKE, requests, rps and statuses count the purchases only, and
--   handshake=H handshake_statuses=200:h,... all_rps=Q
-- follow: the ticket requests and their answers, and the rate of both kinds together; the latencies are
-- wrk's, of both kinds together.

local method = os.getenv("BENCH_METHOD") or "GET"
local token_file = os.getenv("BENCH_TOKENS")
local token_split = os.getenv("BENCH_TOKENS_SPLIT") == "1"
local token_header = os.getenv("BENCH_TOKEN_HEADER") or "Authorization"
local token_prefix = os.getenv("BENCH_TOKEN_PREFIX") or "Bearer "
local accepted_text = os.getenv("BENCH_ACCEPTED")
if accepted_text == "" then accepted_text = nil end
local handshake = os.getenv("BENCH_HANDSHAKE") == "1"
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
    local n = tonumber(os.getenv("BENCH_THREADS") or "1") -- wrk -t, so the slices do not overlap
    if token_split then
      for line in io.lines(string.format("%s.%04d", token_file, id - 1)) do
        if #line > 0 then table.insert(tokens, line) end
      end
    else
      local i = 0
      for line in io.lines(token_file) do
        if #line > 0 then
          i = i + 1
          if (i - id) % n == 0 then table.insert(tokens, line) end
        end
      end
    end
  end
  next_token = 1
  if handshake then
    if #tokens == 0 then error("BENCH_HANDSHAKE needs BENCH_TOKENS") end
    if os.getenv("BENCH_CONNECTIONS") ~= os.getenv("BENCH_THREADS") then
      error("BENCH_HANDSHAKE needs one connection per thread (wrk -t N -c N, BENCH_THREADS = BENCH_CONNECTIONS)")
    end
    ticket_path = wrk.path .. "/ticket"
    ticket_statuses = {}
    tickets_asked = 0
    purchases = 0
    pairs_queued = {}   -- (token, ticket) pairs the ticket answers gave, from queue_head to queue_tail
    queue_head, queue_tail = 1, 0
    in_flight = nil     -- the request on this thread's one connection: { ticket = bool, token = ... }
  end
end

local function take_token()
  local token = tokens[next_token]
  next_token = next_token % #tokens + 1
  return token
end

function request()
  local headers = {}
  if not handshake then
    if #tokens > 0 then headers[token_header] = token_prefix .. take_token() end
    return wrk.format(method, nil, headers, nil)
  end
  if queue_head <= queue_tail then
    local pair = pairs_queued[queue_head]
    pairs_queued[queue_head] = nil
    queue_head = queue_head + 1
    headers[token_header] = token_prefix .. pair.token
    headers["Seckill-Ticket"] = pair.ticket
    in_flight = { ticket = false }
    return wrk.format("POST", nil, headers, nil)
  end
  local token = take_token()
  headers[token_header] = token_prefix .. token
  headers["Content-Type"] = "application/json" -- no body; a form content type would be refused (415)
  -- A request that got no answer (a timeout, a broken connection) is simply replaced: only the latest counts.
  in_flight = { ticket = true, token = token }
  return wrk.format("POST", ticket_path, headers, nil)
end

function response(status, headers, body)
  if handshake and in_flight and in_flight.ticket then
    ticket_statuses[status] = (ticket_statuses[status] or 0) + 1
    tickets_asked = tickets_asked + 1
    local ticket = status == 200 and body and string.match(body, '"ticket"%s*:%s*"([^"]+)"')
    if ticket then
      queue_tail = queue_tail + 1
      pairs_queued[queue_tail] = { token = in_flight.token, ticket = ticket }
    end
    in_flight = nil
    return
  end
  in_flight = nil
  if handshake then purchases = purchases + 1 end
  local key = status
  if status == 503 and body then
    -- 503 has several causes (order-unconfirmed, backend-unavailable, voucher-busy): counted apart
    local code = string.match(body, '"code"%s*:%s*"([^"]+)"')
    if code then key = "503(" .. code .. ")" end
  end
  statuses[key] = (statuses[key] or 0) + 1
  if accepted_text and body and string.find(body, accepted_text, 1, true) then accepted = accepted + 1 end
end

local function joined(counts)
  local parts = {}
  for code, n in pairs(counts) do table.insert(parts, code .. ":" .. n) end
  table.sort(parts)
  return table.concat(parts, ",")
end

function done(summary, latency, requests)
  local merged, merged_tickets = {}, {}
  local all_accepted, all_purchases, all_tickets = 0, 0, 0
  for _, thread in ipairs(threads) do
    for code, n in pairs(thread:get("statuses")) do merged[code] = (merged[code] or 0) + n end
    all_accepted = all_accepted + thread:get("accepted")
    if handshake then
      for code, n in pairs(thread:get("ticket_statuses")) do merged_tickets[code] = (merged_tickets[code] or 0) + n end
      all_purchases = all_purchases + thread:get("purchases")
      all_tickets = all_tickets + thread:get("tickets_asked")
    end
  end
  local seconds = summary.duration / 1e6
  local e = summary.errors
  local counted = handshake and all_purchases or summary.requests
  -- socket errors only (connect, read, write, timeout); HTTP answers are in statuses
  io.write(string.format("BENCH requests=%d seconds=%.2f rps=%.1f p50_ms=%.2f p99_ms=%.2f socket_errors=%d statuses=%s%s%s\n",
    counted, seconds, counted / seconds, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, e.connect + e.read + e.write + e.timeout, joined(merged),
    accepted_text and (" accepted=" .. all_accepted) or "",
    handshake and string.format(" handshake=%d handshake_statuses=%s all_rps=%.1f", all_tickets,
      joined(merged_tickets), summary.requests / seconds) or ""))
end
