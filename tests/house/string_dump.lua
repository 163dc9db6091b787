-- Tries to make bytecode.
local code = string.dump(function() end)
return {}
