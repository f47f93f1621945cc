-- perfctl's Lua workload: call-heavy on purpose (small functions, closures,
-- metatables, string parsing, table.sort with a Lua comparator, recursion).
-- Deterministic output for a given N (arg[1]): no time, no addresses.
local n = tonumber(arg[1]) or 20000
local seed = 12345
local function rand(m) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % m end
local words = {"alpha","beta","gamma","delta","epsilon","zeta","eta","theta","iota","kappa","lambda","mu"}

local Account = {}
Account.__index = Account
function Account.new(name) return setmetatable({name = name, n = 0, total = 0, max = 0}, Account) end
function Account:add(v) self.n = self.n + 1; self.total = self.total + v; if v > self.max then self.max = v end end
function Account:mean() return self.n > 0 and self.total / self.n or 0 end

local function record(i)
  local w = {}
  for j = 1, 3 + rand(6) do w[#w + 1] = words[1 + rand(#words)] .. (rand(4) == 0 and tostring(rand(100)) or "") end
  return string.format("%d;%s;%d.%02d;%s", i, table.concat(w, " "), rand(1000), rand(100), rand(3) == 0 and "ok" or "fail")
end

local accounts, status = {}, {ok = 0, fail = 0}
local function account(word)
  local a = accounts[word]
  if not a then a = Account.new(word); accounts[word] = a end
  return a
end
for i = 1, n do
  local _, text, num, st = record(i):match("^(%d+);([^;]*);([%d%.]+);(%a+)$")
  status[st] = status[st] + 1
  local v = tonumber(num)
  for word in text:gmatch("%a+") do account(word):add(v) end
end

local keys = {}
for k in pairs(accounts) do keys[#keys + 1] = k end
table.sort(keys, function(a, b)
  local x, y = accounts[a], accounts[b]
  if x.n ~= y.n then return x.n > y.n end
  return a < b
end)
for _, k in ipairs(keys) do
  local a = accounts[k]
  print(string.format("%-8s %7d %12.2f %8.3f %7.2f", k, a.n, a.total, a:mean(), a.max))
end

local function fib(x) if x < 2 then return x end return fib(x - 1) + fib(x - 2) end
local function compose(f, g) return function(x) return f(g(x)) end end
local inc = function(x) return x + 1 end
local dbl = function(x) return x * 2 end
local h = compose(inc, compose(dbl, inc))
local acc = 0
for i = 1, n // 500 do acc = acc + fib(12 + i % 6) end
for i = 1, n * 4 do acc = (acc + h(i)) % 1000000007 end

local t = {}
for i = 1, n do t[i] = {key = (i * 7919) % n, id = i} end
table.sort(t, function(a, b) if a.key ~= b.key then return a.key < b.key end return a.id < b.id end)
print("ok", status.ok, "fail", status.fail, "acc", acc, "sorted", t[1].key, t[n].key)
