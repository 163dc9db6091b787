-- The sandbox around house rule scripts. Trusted code: take5 runs it once per Lua state, before
-- any script, with the libraries take5 opened (base, table, string, math, utf8, coroutine).
--
-- A script never sees this state's real globals: each run of a script gets a fresh global table
-- from `new_env`, which reads through to `base` below. `base` holds the harmless base functions
-- and read-only views of the libraries; a name take5 removed raises an error that says so.
-- Afterwards the real global table is emptied, so nothing else is left to reach.
--
-- Arguments from Rust: `spent()` says whether the running call's instruction budget is spent;
-- `write(text)` prints a line to take5's stderr.
local spent, write = ...

local G = _G
local error, next, setmetatable, tostring = error, next, setmetatable, tostring
local pcall, xpcall = pcall, xpcall
local resume, close = coroutine.resume, coroutine.close
local concat, pack = table.concat, table.pack
local format, type = string.format, type

local function not_available(name, why)
  local message = name .. " is not available in take5 house rules"
  if why then
    message = message .. " (" .. why .. ")"
  end
  return message
end

-- pcall, xpcall and coroutine.resume catch errors; they must not catch the one that ends a call
-- whose instruction budget is spent, or `while true do pcall(f) end` would never stop.
local function pass(ok, ...)
  if not ok and spent() then
    error((...), 0)
  end
  return ok, ...
end

-- A read-only view of a library: reads go to the library, writes fail, removed names say so.
local function library(name, lib, removed)
  for key in next, removed do
    lib[key] = nil
  end
  setmetatable(lib, {
    __index = function(_, key)
      local why = removed[key]
      if why ~= nil then
        error(not_available(name .. "." .. tostring(key), why or nil), 2)
      end
    end,
  })
  return setmetatable({}, {
    __index = lib,
    __newindex = function()
      error(name .. " is read-only in take5 house rules", 2)
    end,
    -- Not `next, lib`: that would hand out the library table itself.
    __pairs = function()
      return function(_, key)
        return next(lib, key)
      end, nil, nil
    end,
    __metatable = false,
  })
end

local deterministic = "house rules are deterministic: a game must play out the same way on "
  .. "every machine and when its record is verified"
local no_code = "house rules cannot load code"

local base = {
  _VERSION = _VERSION,
  assert = assert,
  error = error,
  getmetatable = getmetatable,
  ipairs = ipairs,
  next = next,
  pairs = pairs,
  rawequal = rawequal,
  rawget = rawget,
  rawlen = rawlen,
  select = select,
  setmetatable = setmetatable,
  tonumber = tonumber,
  tostring = tostring,
  type = type,
  pcall = function(...)
    return pass(pcall(...))
  end,
  xpcall = function(...)
    return pass(xpcall(...))
  end,
  print = function(...)
    local parts = pack(...)
    for i = 1, parts.n do
      parts[i] = tostring(parts[i])
    end
    write(concat(parts, "\t", 1, parts.n))
  end,
  string = library("string", string, { dump = no_code }),
  table = library("table", table, {}),
  math = library("math", math, { random = deterministic, randomseed = deterministic }),
  utf8 = library("utf8", utf8, {}),
  coroutine = library("coroutine", {
    create = coroutine.create,
    isyieldable = coroutine.isyieldable,
    running = coroutine.running,
    status = coroutine.status,
    wrap = coroutine.wrap,
    yield = coroutine.yield,
    resume = function(...)
      return pass(resume(...))
    end,
    close = function(...)
      return pass(close(...))
    end,
  }, {}),
}

local removed = {
  os = false,
  io = false,
  debug = false,
  package = false,
  require = no_code,
  load = no_code,
  loadstring = no_code,
  dofile = no_code,
  loadfile = no_code,
  collectgarbage = false,
  rawset = "it would write through read-only tables",
  warn = false,
}

setmetatable(base, {
  __index = function(_, key)
    local why = removed[key]
    if why ~= nil then
      error(not_available(tostring(key), why or nil), 2)
    end
  end,
  __newindex = function()
    error("take5's base library is read-only", 2)
  end,
  __metatable = false,
})

-- Strings share one metatable whose __index is the real string library: hide it.
getmetatable("").__metatable = false

local env_meta = { __index = base, __metatable = false }

local function new_env()
  local env = setmetatable({}, env_meta)
  env._G = env
  return env
end

-- Runs a compiled script's top level in fresh globals (one call from take5 rather than two).
local function run(chunk)
  return chunk(new_env())
end

-- The table view and the arrays in it are read-only too.
local function read_only()
  error("the table view is read-only: hooks change the game by what they return", 2)
end

-- A frozen array is an empty table with this metatable; `shown` has its contents (weak keys:
-- the contents live as long as a script keeps the array).
local shown = setmetatable({}, { __mode = "k" })
local frozen = {
  __index = function(proxy, key)
    return shown[proxy][key]
  end,
  __newindex = read_only,
  __len = function(proxy)
    return #shown[proxy]
  end,
  __pairs = function(proxy)
    local data = shown[proxy]
    return function(_, key)
      return next(data, key)
    end, nil, nil
  end,
  __metatable = false,
}

local function freeze(data)
  local proxy = setmetatable({}, frozen)
  shown[proxy] = data
  return proxy
end

-- Frozen arrays from arguments (cheaper than building the tables from Rust):
-- numbers(...) is a sequence of the arguments; lists(n, len_1, ..., len_n, items...) is n
-- sequences of the items, len_1 in the first, and so on, in a sequence.
local function numbers(...)
  return freeze({ ... })
end

local function lists(n, ...)
  local args = { ... }
  local outer, at = {}, n + 1
  for i = 1, n do
    local list = {}
    for j = 1, args[i] do
      list[j] = args[at]
      at = at + 1
    end
    outer[i] = freeze(list)
  end
  return freeze(outer)
end

-- The table view. Its fields are read from the game the first time a hook call reads them
-- (`fetch(name)` is take5's) and kept in `fixed` for the rest of the call; take5 calls `forget`
-- before the next hook call if anything was kept. t.bullheads never changes.
local fixed = {}
local view = setmetatable({}, { __index = fixed, __newindex = read_only, __metatable = false })
local fetch
local function scalar(value)
  return value
end
local fields = {
  round = scalar,
  turn = scalar,
  seats = scalar,
  rows = lists,
  hands = lists,
  piles = lists,
  taken = numbers,
  scores = numbers,
}
local names = "round, turn, seats, rows, hands, piles, taken, scores, bullheads"

setmetatable(fixed, {
  __index = function(_, key)
    local build = fields[key]
    if build == nil then
      local what = type(key) == "string" and format("%q", key) or tostring(key)
      error(format("the table view has no field %s (it has %s)", what, names), 2)
    end
    local value = build(fetch(key))
    fixed[key] = value
    return value
  end,
})

local function forget()
  fixed.round, fixed.turn, fixed.seats = nil, nil, nil
  fixed.rows, fixed.hands, fixed.piles, fixed.taken, fixed.scores = nil, nil, nil, nil, nil
end

-- Gives the view take5's `fetch` and the deck for t.bullheads(card) (or t:bullheads(card)).
local function set_view(fetcher, by_card, lowest, highest)
  fetch = fetcher
  fixed.bullheads = function(a, b)
    local card = a
    if b ~= nil then
      card = b
    end
    local n = by_card[card]
    if n == nil then
      error(format("bullheads(%s): not a card of the deck (%d to %d)", tostring(card), lowest, highest), 2)
    end
    return n
  end
end

-- take5 calls hooks through these (with the view first): arrays come as extra arguments and
-- are made into the sequences a hook gets here (cheaper than building tables from Rust).
-- row_taken, the hook called at every take, has its caller in C (sandbox.rs).
local callers = {
  low_card = function(hook)
    return hook
  end,
  -- The penalties come back as returned, or as the hook left them.
  round_end = function(hook)
    return function(t, ...)
      local penalties = { ... }
      local result = hook(t, penalties)
      if result == nil then
        return penalties
      end
      return result
    end
  end,
  game_over = function(hook)
    return function(t, ...)
      return hook(t, { ... })
    end
  end,
}

for key in next, G do
  G[key] = nil
end

return { run = run, view = view, forget = forget, set_view = set_view, callers = callers }
