-- Allocates without end, in a hook.
return {
  row_taken = function(t, seat, row, cards, bullheads)
    local hoard = {}
    local chunk = string.rep("x", 1024 * 1024)
    while true do
      hoard[#hoard + 1] = chunk .. #hoard
    end
  end,
}
