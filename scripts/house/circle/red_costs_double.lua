-- The circle game where red cards cost double: a collected row's red bullheads count twice.
-- The row's points as the rules count them are `bullheads` (green add, red subtract); the red
-- ones are subtracted once more.
return {
  row_taken = function(t, seat, row, cards, bullheads)
    local red = 0
    for _, card in ipairs(cards) do
      if t.red(card) then
        red = red + t.bullheads(card)
      end
    end
    return bullheads - red
  end,
}
