-- Each `..` copies 10 MB, work the instruction count does not see.
local s = string.rep("a", 10000000)
while true do
  local t = s .. "x"
end
