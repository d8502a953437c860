-- wrk script for POST /.netlify/functions/submit-lead: every request carries a distinct
-- valid US phone, so the duplicate check never answers for the store.
--
-- Usage: wrk -tT -cC -dD --latency -s bench/leads.lua URL -- BODY_TEMPLATE THREADS
-- BODY_TEMPLATE is a JSON body (leads.body_template(), written by bench.py) with @PHONE@
-- where the number goes; THREADS is wrk's -t, the stride between the numbers of two threads.
-- Request n (counting over all threads) gets "(412) EEE-LLLL": LLLL = n mod 10000, EEE the
-- (n / 10000)-th exchange of 200-999 that is not N11 (7.92 million numbers).
-- At the end prints, in the shape of the other bench helpers:
--   leads accepted=<201s> duplicate=<200s> other=<other statuses> seconds=<run> p50_ms=<x> p99_ms=<y>
--   leads errors connect=<n> read=<n> write=<n> timeout=<n> status=<non-2xx/3xx>

local threads = {}
local next_id = 0

function setup(thread)
    thread:set("tid", next_id)
    next_id = next_id + 1
    table.insert(threads, thread)
end

local prefix, suffix, stride
local exchanges = {}
local counter = 0
accepted, duplicate, other = 0, 0, 0

function init(args)
    local f = assert(io.open(args[1], "rb"), "cannot open the body template " .. tostring(args[1]))
    local template = f:read("*a")
    f:close()
    local at = assert(template:find("@PHONE@", 1, true), "no @PHONE@ in the body template")
    prefix, suffix = template:sub(1, at - 1), template:sub(at + #"@PHONE@")
    stride = tonumber(args[2]) or 1
    for e = 200, 999 do
        if e % 100 ~= 11 then table.insert(exchanges, e) end
    end
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/json"
end

function request()
    local n = counter * stride + tid
    counter = counter + 1
    local exchange = exchanges[math.floor(n / 10000) % #exchanges + 1]
    local phone = string.format("(412) %03d-%04d", exchange, n % 10000)
    return wrk.format(nil, nil, nil, prefix .. phone .. suffix)
end

function response(status, headers, body)
    if status == 201 then
        accepted = accepted + 1
    elseif status == 200 then
        duplicate = duplicate + 1
    else
        other = other + 1
    end
end

function done(summary, latency, requests)
    local a, d, o = 0, 0, 0
    for _, t in ipairs(threads) do
        a = a + t:get("accepted")
        d = d + t:get("duplicate")
        o = o + t:get("other")
    end
    io.write(string.format("leads accepted=%d duplicate=%d other=%d seconds=%.3f p50_ms=%.2f p99_ms=%.2f\n",
        a, d, o, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
    local e = summary.errors
    io.write(string.format("leads errors connect=%d read=%d write=%d timeout=%d status=%d\n",
        e.connect, e.read, e.write, e.timeout, e.status))
end
