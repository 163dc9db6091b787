-- Memory used up slowly, a small table at a time: the message gives the line it was at.
local hoard = {}
local i = 0
while true do
  i = i + 1
  hoard[i] = { i }
end
