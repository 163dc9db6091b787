-- A bullheads function under its budget for each card, over 65,535 cards.
return {
  deck = { highest = 65535 },
  bullheads = function(card)
    local n = 0
    for i = 1, 4000000 do
      n = n + 1
    end
    return 1
  end,
}
