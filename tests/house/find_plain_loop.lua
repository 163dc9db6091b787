-- Plain finds over a long string, few instructions each but much work in C.
local s = string.rep("a", 10000000)
while true do
  s:find("b", 1, true)
end
