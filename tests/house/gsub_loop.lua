-- gsub over a long string, again and again.
local s = string.rep("a", 1000000)
while true do
  s:gsub("a", "b")
end
