-- A finalizer that never ends: Lua runs finalizers with hooks off, out of the budget's reach.
setmetatable({}, { __gc = function()
  while true do
  end
end })
return {}
