-- The sandbox around house rule scripts. Trusted code: take5 runs it once per Lua state, before
-- any script, with the libraries take5 opened (base, table, string, math, utf8, coroutine).
--
-- A script never sees this state's real globals: each run of a script gets a fresh global table
-- from `new_env`, which reads through to `base` below. `base` holds the harmless base functions
-- and read-only views of the libraries; a name take5 removed raises an error that says so.
-- Afterwards the real global table is emptied, so nothing else is left to reach.
--
-- Arguments from Rust: `spent()` says whether the running call's instruction budget is spent;
-- `write(text)` prints a line to take5's stderr; `charge(n)` counts `n` instructions against the
-- budget (for the work of a C library function, which the count hook does not see).
local spent, write, charge = ...

local G = _G
local error, next, setmetatable, tostring = error, next, setmetatable, tostring
local getmetatable, rawget, select = getmetatable, rawget, select
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


-- A message handler runs where the error was raised; for the budget's error that is inside the
-- count hook, where Lua counts nothing, so the handler is skipped once the budget is spent.
local function guarded(handler)
  return function(e)
    if spent() then
      return e
    end
    return handler(e)
  end
end

-- error(v): a message that is not a string (a table, nil) would reach take5 as "table: 0x...",
-- with no line; it becomes a message saying what was raised, at the script's line.
local function raise(message, level)
  local kind = type(message)
  if kind ~= "string" and kind ~= "number" then
    message = format("error called with a %s value (house rules raise errors with a message: a string)", kind)
  end
  level = level == nil and 1 or level
  if type(level) == "number" and level > 0 then
    level = level + 1
  end
  error(message, level) -- not a tail call: `level` counts this function
end

-- Metatables. Lua runs __gc finalizers and the __close handlers of a failing call where no
-- count hook runs, so a script may not use them. A metatable is read when it is set: the object
-- gets a copy (without __gc and __close, which are refused), and later changes to the script's
-- table do not reach it. getmetatable answers the script's own table.
local original = setmetatable({}, { __mode = "k" })
local refused_fields = {
  __gc = "finalizers run outside the instruction budget",
  __close = "to-be-closed handlers may run outside the instruction budget",
}

-- The real setmetatable, its errors at the script's line.
local function set_real(object, mt)
  local ok, result = pcall(setmetatable, object, mt)
  if not ok then
    error(result, 3)
  end
  return result
end

local function set_metatable(object, mt)
  if type(mt) ~= "table" then
    local result = set_real(object, mt)
    return result
  end
  local copy = {}
  for key, value in next, mt do
    local why = refused_fields[key]
    if why then
      error(format("setmetatable: %s is not available in take5 house rules (%s)", key, why), 2)
    end
    copy[key] = value
  end
  original[copy] = mt
  local result = set_real(object, copy)
  return result
end

local function get_metatable(object)
  local mt = getmetatable(object)
  local given = original[mt]
  if given ~= nil then
    return given
  end
  return mt
end

-- The C functions of the libraries do their work where the count hook does not see it: each
-- is charged here for what it reads and writes (an instruction per 16 bytes or per element, a
-- generous price), before the work where the size is known, after it where only the result
-- tells. Lua patterns are matched by the Lua code below, whose every step the hook counts: the
-- C matcher backtracks without bound (string.find(string.rep("a", 1e5), ".-.-.-b")).
local strings = {}
for name, f in next, string do
  strings[name] = f
end
local s_byte, s_sub, s_char, s_find = string.byte, string.sub, string.char, string.find
local s_rep = string.rep
local tointeger = math.tointeger
local t_concat, t_insert, t_remove, t_move, t_sort, t_unpack =
  table.concat, table.insert, table.remove, table.move, table.sort, table.unpack

local c_gsub, c_format = strings.gsub, strings.format

local function bytes(n)
  charge(n // 16 + 1)
end

-- The results of `pcall(f, ...)` for the C function `f`, the library's `name`; its error at the
-- script's line (`level`: 2 when called in a tail call, 3 otherwise), named as the script
-- called it. Called through these wrappers, Lua would name this file's line and local.
local function fix(level, name, ok, ...)
  if ok then
    return ...
  end
  local e = (...)
  if type(e) == "string" and not spent() then
    e = c_gsub(e, "^take5 sandbox:%d+: ", "")
    if s_find(e, "^bad argument") then
      e = c_gsub(e, "to '[^']*'", "to '" .. name .. "'", 1)
    end
    if s_find(e, "^[^\n]-:%d+: ") then
      level = 0 -- the script's own error (a sort comparator's), at its line already
    end
    error(e, level)
  end
  error(e, 0)
end

-- Charged after the call, by the length of the first result (a string).
local function by_result(name, f)
  return function(...)
    local result = fix(3, name, pcall(f, ...))
    if type(result) == "string" then
      bytes(#result)
    end
    return result
  end
end

string.format = by_result("format", c_format)
string.lower = by_result("lower", strings.lower)
string.upper = by_result("upper", strings.upper)
string.reverse = by_result("reverse", strings.reverse)
string.sub = by_result("sub", strings.sub)
string.rep = function(s, n, sep)
  local count = tointeger(n)
  if type(s) == "string" and count ~= nil and count > 0 then
    local each = #s + (type(sep) == "string" and #sep or 0)
    if each > 0 and count > (1 << 40) // each then
      error("resulting string too large", 2)
    end
    bytes(each * count)
  end
  return fix(2, "rep", pcall(s_rep, s, n, sep))
end
string.byte = function(s, i, j)
  local first, last = tointeger(i) or 1, tointeger(j) or tointeger(i) or 1
  if last > first then
    charge(last - first)
  end
  return fix(2, "byte", pcall(s_byte, s, i, j))
end
string.char = function(...)
  charge(select("#", ...))
  return fix(2, "char", pcall(s_char, ...))
end

local function integer_or(value, default)
  if value == nil then
    return default
  end
  return tointeger(value) or default
end

-- The elements `i` to `j` of `list` (by default all of it): one instruction each.
local function elements(list, i, j, all)
  local first = integer_or(i, 1)
  local last = integer_or(j, nil) or (all and type(list) == "table" and #list or first - 1)
  if last >= first then
    charge(last - first + 1)
  end
end

table.concat = function(list, sep, i, j)
  elements(list, i, j, true)
  local result = fix(3, "concat", pcall(t_concat, list, sep, i, j))
  bytes(#result)
  return result
end
table.unpack = function(list, i, j)
  elements(list, i, j, true)
  return fix(2, "unpack", pcall(t_unpack, list, i, j))
end
table.move = function(a1, f, e, t, a2)
  elements(a1, f, e, false)
  return fix(2, "move", pcall(t_move, a1, f, e, t, a2))
end
-- insert and remove shift the elements after the place.
table.insert = function(list, ...)
  elements(list, 1, nil, true)
  return fix(2, "insert", pcall(t_insert, list, ...))
end
table.remove = function(list, ...)
  elements(list, 1, nil, true)
  return fix(2, "remove", pcall(t_remove, list, ...))
end
table.sort = function(list, comp)
  if type(list) == "table" then
    local n = #list
    local log = 1
    while (1 << log) < n do
      log = log + 1
    end
    charge(n * log)
  end
  return fix(2, "sort", pcall(t_sort, list, comp))
end

local u_len, u_codepoint, u_char, u_offset = utf8.len, utf8.codepoint, utf8.char, utf8.offset
-- Charged before the call, by the length of the subject (the first argument).
local function by_subject(name, f)
  return function(s, ...)
    if type(s) == "string" then
      bytes(#s)
    end
    return fix(2, name, pcall(f, s, ...))
  end
end
utf8.len = by_subject("len", u_len)
utf8.offset = by_subject("offset", u_offset)
utf8.codepoint = function(s, i, j, lax)
  if type(s) == "string" then
    bytes(#s)
    local first = integer_or(i, 1)
    local last = integer_or(j, first)
    if last > first then
      charge(last - first)
    end
  end
  return fix(2, "codepoint", pcall(u_codepoint, s, i, j, lax))
end
utf8.char = function(...)
  charge(select("#", ...))
  return fix(2, "char", pcall(u_char, ...))
end

-- Lua patterns (the reference manual, 6.4.1), a port of lstrlib.c's matcher. A match state is
-- the subject `src`, the pattern `pat`, and the captures: `cap_init[i]`, `cap_len[i]` (or
-- UNFINISHED, or POSITION for `()`), `level` of them.
local UNFINISHED, POSITION = -1, -2
local MAXCAPTURES, MAXDEPTH = 32, 200
local ESC, LBRACKET, RBRACKET, CARET, DOLLAR = 37, 91, 93, 94, 36
local LPAREN, RPAREN, DOT, STAR, PLUS, MINUS, QUESTION = 40, 41, 46, 42, 43, 45, 63

-- Character classes (%a, %d, ...), by class letter and byte, from the C library once.
local classes = {}
for _, letter in next, { "a", "c", "d", "g", "l", "p", "s", "u", "w", "x", "z" } do
  local lower, upper = {}, {}
  for c = 0, 255 do
    local yes = s_find(s_char(c), "^%" .. letter) ~= nil
    lower[c], upper[c] = yes, not yes
  end
  classes[s_byte(letter)] = lower
  classes[s_byte(letter:upper())] = upper
end

local function match_class(c, cl)
  local class = classes[cl]
  if class then
    return class[c]
  end
  return cl == c
end

-- The matcher's own errors: `located` gives them the line of the script's call.
local OWN = {}
local function fail(message)
  error({ [OWN] = message }, 0)
end

local function pattern_error(message)
  fail("malformed pattern (" .. message .. ")")
end

local M = {}
M.__index = M

local function state(src, pat)
  return setmetatable({
    src = src, src_end = #src + 1, pat = pat, p_end = #pat + 1,
    level = 0, depth = MAXDEPTH, cap_init = {}, cap_len = {},
  }, M)
end

function M:class_end(p)
  local pat = self.pat
  local c = s_byte(pat, p)
  p = p + 1
  if c == ESC then
    if p >= self.p_end then
      pattern_error("ends with '%'")
    end
    return p + 1
  elseif c == LBRACKET then
    if s_byte(pat, p) == CARET then
      p = p + 1
    end
    repeat
      if p >= self.p_end then
        pattern_error("missing ']'")
      end
      local cc = s_byte(pat, p)
      p = p + 1
      if cc == ESC and p < self.p_end then
        p = p + 1
      end
    until s_byte(pat, p) == RBRACKET
    return p + 1
  end
  return p
end

-- `p` at the '[', `ec` at the ']'.
function M:bracket(c, p, ec)
  local pat = self.pat
  local sig = true
  if s_byte(pat, p + 1) == CARET then
    sig = false
    p = p + 1
  end
  p = p + 1
  while p < ec do
    local pc = s_byte(pat, p)
    if pc == ESC then
      p = p + 1
      if match_class(c, s_byte(pat, p)) then
        return sig
      end
    elseif s_byte(pat, p + 1) == MINUS and p + 2 < ec then
      if pc <= c and c <= s_byte(pat, p + 2) then
        return sig
      end
      p = p + 2
    elseif pc == c then
      return sig
    end
    p = p + 1
  end
  return not sig
end

function M:single(s, p, ep)
  if s >= self.src_end then
    return false
  end
  local c = s_byte(self.src, s)
  local pc = s_byte(self.pat, p)
  if pc == DOT then
    return true
  elseif pc == ESC then
    return match_class(c, s_byte(self.pat, p + 1))
  elseif pc == LBRACKET then
    return self:bracket(c, p, ep - 1)
  end
  return pc == c
end

function M:max_expand(s, p, ep)
  local i = 0
  while self:single(s + i, p, ep) do
    i = i + 1
  end
  while i >= 0 do
    local res = self:match(s + i, ep + 1)
    if res then
      return res
    end
    i = i - 1
  end
  return nil
end

function M:min_expand(s, p, ep)
  while true do
    local res = self:match(s, ep + 1)
    if res then
      return res
    elseif self:single(s, p, ep) then
      s = s + 1
    else
      return nil
    end
  end
end

function M:start_capture(s, p, what)
  local level = self.level
  if level >= MAXCAPTURES then
    fail("too many captures")
  end
  self.cap_init[level] = s
  self.cap_len[level] = what
  self.level = level + 1
  local res = self:match(s, p)
  if not res then
    self.level = self.level - 1
  end
  return res
end

function M:end_capture(s, p)
  local l = nil
  for i = self.level - 1, 0, -1 do
    if self.cap_len[i] == UNFINISHED then
      l = i
      break
    end
  end
  if l == nil then
    fail("invalid pattern capture")
  end
  self.cap_len[l] = s - self.cap_init[l]
  local res = self:match(s, p)
  if not res then
    self.cap_len[l] = UNFINISHED
  end
  return res
end

function M:check_capture(l)
  l = l - 49 -- '1'
  if l < 0 or l >= self.level or self.cap_len[l] == UNFINISHED then
    fail(format("invalid capture index %%%d", l + 1))
  end
  return l
end

function M:match_capture(s, l)
  l = self:check_capture(l)
  local len = self.cap_len[l]
  local init = self.cap_init[l]
  if self.src_end - s >= len and s_sub(self.src, init, init + len - 1) == s_sub(self.src, s, s + len - 1) then
    charge(len // 16)
    return s + len
  end
  return nil
end

function M:balance(s, p)
  if p >= self.p_end - 1 then
    pattern_error("missing arguments to '%b'")
  end
  local src = self.src
  local b, e = s_byte(self.pat, p), s_byte(self.pat, p + 1)
  if s >= self.src_end or s_byte(src, s) ~= b then
    return nil
  end
  local cont = 1
  s = s + 1
  while s < self.src_end do
    local c = s_byte(src, s)
    if c == e then
      cont = cont - 1
      if cont == 0 then
        return s + 1
      end
    elseif c == b then
      cont = cont + 1
    end
    s = s + 1
  end
  return nil
end

function M:match(s, p)
  self.depth = self.depth - 1
  if self.depth == 0 then
    fail("pattern too complex")
  end
  local pat = self.pat
  while p ~= self.p_end do
    local pc = s_byte(pat, p)
    if pc == LPAREN then
      if s_byte(pat, p + 1) == RPAREN then
        s = self:start_capture(s, p + 2, POSITION)
      else
        s = self:start_capture(s, p + 1, UNFINISHED)
      end
      break
    elseif pc == RPAREN then
      s = self:end_capture(s, p + 1)
      break
    elseif pc == DOLLAR and p + 1 == self.p_end then
      if s ~= self.src_end then
        s = nil
      end
      break
    end
    local next_pc = s_byte(pat, p + 1)
    local special = false
    if pc == ESC then
      if next_pc == 98 then -- %b
        s = self:balance(s, p + 2)
        if s == nil then
          break
        end
        p = p + 4
        special = true
      elseif next_pc == 102 then -- %f
        p = p + 2
        if s_byte(pat, p) ~= LBRACKET then
          fail("missing '[' after '%f' in pattern")
        end
        local ep = self:class_end(p)
        local previous = s == 1 and 0 or s_byte(self.src, s - 1)
        local current = s < self.src_end and s_byte(self.src, s) or 0
        if not self:bracket(previous, p, ep - 1) and self:bracket(current, p, ep - 1) then
          p = ep
          special = true
        else
          s = nil
          break
        end
      elseif next_pc ~= nil and next_pc >= 48 and next_pc <= 57 then -- %0-%9
        s = self:match_capture(s, next_pc)
        if s == nil then
          break
        end
        p = p + 2
        special = true
      end
    end
    if not special then
      local ep = self:class_end(p)
      local epc = s_byte(pat, ep)
      if not self:single(s, p, ep) then
        if epc == STAR or epc == QUESTION or epc == MINUS then
          p = ep + 1
        else
          s = nil
          break
        end
      elseif epc == QUESTION then
        local res = self:match(s + 1, ep + 1)
        if res then
          s = res
          break
        end
        p = ep + 1
      elseif epc == PLUS then
        s = self:max_expand(s + 1, p, ep)
        break
      elseif epc == STAR then
        s = self:max_expand(s, p, ep)
        break
      elseif epc == MINUS then
        s = self:min_expand(s, p, ep)
        break
      else
        s = s + 1
        p = ep
      end
    end
  end
  self.depth = self.depth + 1
  return s
end

function M:reset()
  self.level = 0
  self.depth = MAXDEPTH
end

-- Capture `i` (from 0) of a match from `s` to `e` (exclusive), as a string or a position.
function M:capture(i, s, e)
  if i >= self.level then
    if i ~= 0 then
      fail(format("invalid capture index %%%d", i + 1))
    end
    return s_sub(self.src, s, e - 1)
  end
  local len = self.cap_len[i]
  local init = self.cap_init[i]
  if len == UNFINISHED then
    fail("unfinished capture")
  elseif len == POSITION then
    return init
  end
  return s_sub(self.src, init, init + len - 1)
end

local function captures_of(ms, s, e, whole)
  local n = ms.level
  if n == 0 and whole then
    n = 1
  end
  local out = {}
  for i = 0, n - 1 do
    out[i + 1] = ms:capture(i, s, e)
  end
  return t_unpack(out, 1, n)
end

local SPECIALS = "^$*+?.([%-"

local function check_string(value, n, name)
  local kind = type(value)
  if kind == "number" then
    return tostring(value)
  elseif kind ~= "string" then
    fail(format("bad argument #%d to '%s' (string expected, got %s)", n, name, kind == "nil" and "no value" or kind))
  end
  return value
end

-- posrelatI of lstrlib.c: a start position from 1, for a string of length `len`.
local function start_at(init, len)
  init = integer_or(init, 1)
  if init > 0 then
    return init
  elseif init == 0 or init < -len then
    return 1
  end
  return len + init + 1
end

-- Runs `f` and gives its errors the line of the script's call (pattern errors come without).
local function located(f, ...)
  local results = pack(pcall(f, ...))
  if results[1] then
    return t_unpack(results, 2, results.n)
  end
  local e = results[2]
  if type(e) == "table" and e[OWN] ~= nil and not spent() then
    error(e[OWN], 2) -- the script's line (every caller calls this in a tail call)
  end
  error(e, 0)
end

local function find_aux(find, s, p, init, plain)
  local name = find and "find" or "match"
  s = check_string(s, 1, name)
  p = check_string(p, 2, name)
  local start = start_at(init, #s)
  if start > #s + 1 then
    return nil
  end
  if find and (plain or not s_find(p, "[%^%$%*%+%?%.%(%[%%%-]")) then
    charge((#s - start + 1) * (#p + 1) // 16 + 1)
    return s_find(s, p, start, true)
  end
  local anchor = s_byte(p, 1) == CARET
  local ms = state(s, anchor and s_sub(p, 2) or p)
  local s1 = start
  repeat
    ms:reset()
    local e = ms:match(s1, 1)
    if e then
      if find then
        return s1, e - 1, captures_of(ms, nil, nil, false)
      end
      return captures_of(ms, s1, e, true)
    end
    s1 = s1 + 1
  until s1 > ms.src_end or anchor
  return nil
end

string.find = function(s, p, init, plain)
  return located(find_aux, true, s, p, init, plain)
end
string.match = function(s, p, init)
  return located(find_aux, false, s, p, init)
end

string.gmatch = function(s, p, init)
  s = check_string(s, 1, "gmatch")
  p = check_string(p, 2, "gmatch")
  local ms = state(s, p)
  local src = start_at(init, #s)
  if src > #s + 1 then
    src = #s + 2
  end
  local last = nil
  local function step()
    while src <= ms.src_end do
      ms:reset()
      local e = ms:match(src, 1)
      if e and e ~= last then
        local from = src
        src, last = e, e
        return captures_of(ms, from, e, true)
      end
      src = src + 1
    end
    return nil
  end
  return function()
    return located(step)
  end
end

local function add_value(ms, out, s, e, repl, kind)
  local value
  if kind == "function" then
    value = repl(captures_of(ms, s, e, true))
  elseif kind == "table" then
    value = repl[ms:capture(0, s, e)]
  else -- a string: %0 to %9 and %%
    local parts, i, n = {}, 1, #repl
    while i <= n do
      local at = s_find(repl, "%", i, true)
      if at == nil then
        parts[#parts + 1] = s_sub(repl, i)
        break
      end
      parts[#parts + 1] = s_sub(repl, i, at - 1)
      local d = s_byte(repl, at + 1)
      if d == ESC then
        parts[#parts + 1] = "%"
      elseif d ~= nil and d >= 48 and d <= 57 then
        if d == 48 then
          parts[#parts + 1] = s_sub(ms.src, s, e - 1)
        else
          parts[#parts + 1] = tostring(ms:capture(d - 49, s, e))
        end
      else
        fail("invalid use of '%' in replacement string")
      end
      i = at + 2
    end
    value = t_concat(parts)
    bytes(#value)
    out[#out + 1] = value
    return true
  end
  if value == nil or value == false then
    out[#out + 1] = s_sub(ms.src, s, e - 1)
    return false
  end
  local vkind = type(value)
  if vkind ~= "string" and vkind ~= "number" then
    fail(format("invalid replacement value (a %s)", vkind))
  end
  out[#out + 1] = tostring(value)
  return true
end

local function gsub(s, p, repl, max)
  s = check_string(s, 1, "gsub")
  p = check_string(p, 2, "gsub")
  local kind = type(repl)
  if kind == "number" then
    repl, kind = tostring(repl), "string"
  end
  if kind ~= "string" and kind ~= "function" and kind ~= "table" then
    fail(format("bad argument #3 to 'gsub' (string/function/table expected, got %s)", kind == "nil" and "no value" or kind))
  end
  local max_s = integer_or(max, #s + 1)
  local anchor = s_byte(p, 1) == CARET
  local ms = state(s, anchor and s_sub(p, 2) or p)
  local out, src, last, n, changed = {}, 1, nil, 0, false
  local plain_from = 1
  while n < max_s do
    ms:reset()
    local e = ms:match(src, 1)
    if e and e ~= last then
      n = n + 1
      out[#out + 1] = s_sub(s, plain_from, src - 1)
      changed = add_value(ms, out, src, e, repl, kind) or changed
      src, last = e, e
      plain_from = src
    elseif src < ms.src_end then
      src = src + 1
    else
      break
    end
    if anchor then
      break
    end
  end
  if not changed then
    return s, n
  end
  out[#out + 1] = s_sub(s, plain_from)
  local result = t_concat(out)
  bytes(#result)
  return result, n
end

string.gsub = function(s, p, repl, max)
  return located(gsub, s, p, repl, max)
end

local deterministic = "house rules are deterministic: a game must play out the same way on "
  .. "every machine and when its record is verified"
local no_code = "house rules cannot load code"

-- `into` with the fields of `from` named in `names`, as they are. (The coroutine library's
-- view below is written out instead, so that the order `pairs` gives its names stays.)
local function kept(from, names, into)
  for i = 1, #names do
    into[names[i]] = from[names[i]]
  end
  return into
end

local base = kept(G, {
  "_VERSION", "assert", "ipairs", "next", "pairs", "rawequal", "rawget", "rawlen", "select",
  "tonumber", "tostring", "type",
}, {
  error = raise,
  getmetatable = get_metatable,
  setmetatable = set_metatable,
  pcall = function(...)
    return pass(pcall(...))
  end,
  xpcall = function(f, handler, ...)
    if type(handler) == "function" then
      handler = guarded(handler)
    end
    return pass(xpcall(f, handler, ...))
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
})

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
-- The hand of the seat a hook concerns (nil for a hook about every seat).
local function hand(present, ...)
  if present then
    return freeze({ ... })
  end
  return nil
end
local fields = {
  round = scalar,
  turn = scalar,
  seats = scalar,
  rows = lists,
  hand = hand,
  piles = lists,
  taken = numbers,
  scores = numbers,
}
local names = "round, turn, seats, rows, hand, piles, taken, scores, bullheads, red"
-- Fields a hook cannot see, and why.
local hidden = {
  hands = "a hook sees the table as the seat it concerns could: its own hand, t.hand, "
    .. "and no other seat's",
}

setmetatable(fixed, {
  __index = function(_, key)
    local build = fields[key]
    if hidden[key] ~= nil then
      error(format("the table view has no field %q: %s", key, hidden[key]), 2)
    end
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
  fixed.rows, fixed.hand, fixed.piles, fixed.taken, fixed.scores = nil, nil, nil, nil, nil
end

-- Gives the view take5's `fetch` and the deck for t.bullheads(card) (or t:bullheads(card)) and
-- t.red(card) (whether the circle game counts the card's bullheads red).
local function set_view(fetcher, by_card, lowest, highest, red)
  fetch = fetcher
  fixed.red = function(a, b)
    local card = a
    if b ~= nil then
      card = b
    end
    if by_card[card] == nil then
      error(format("red(%s): not a card of the deck (%d to %d)", tostring(card), lowest, highest), 2)
    end
    return red[card] == true
  end
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
-- row_taken, the hook called at every take, is called straight from take5 (sandbox.rs).
-- Hooks not listed here (low_card, the variants' own) are called as they are.
local callers = {
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
