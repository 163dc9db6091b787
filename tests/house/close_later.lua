-- A __close handler added to the metatable after setmetatable: the object's metatable is the
-- copy made then, without it.
local mt = {}
local guard = setmetatable({}, mt)
mt.__close = function()
  while true do
  end
end
return {
  row_taken = function(t, seat, row, cards, bullheads)
    local g <close> = guard
    while true do
    end
  end,
}
