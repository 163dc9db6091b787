-- An endless loop in a hook: the first take must stop it.
return {
  row_taken = function(t, seat, row, cards, bullheads)
    local n = 0
    while true do
      n = n + 1
    end
  end,
}
