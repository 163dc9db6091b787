-- Tries to load a module.
local socket = require("socket")
return {}
