-- An xpcall message handler that loops when the budget's error reaches it.
return {
  row_taken = function(t, seat, row, cards, bullheads)
    xpcall(function()
      while true do
      end
    end, function(e)
      while true do
      end
    end)
  end,
}
