-- A to-be-closed handler that loops while the budget's error unwinds the hook.
return {
  row_taken = function(t, seat, row, cards, bullheads)
    local guard <close> = setmetatable({}, { __close = function()
      while true do
      end
    end })
    while true do
    end
  end,
}
