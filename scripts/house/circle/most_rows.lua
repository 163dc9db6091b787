-- The collector's bonus: whoever collected the most rows (every one of them, on a tie) scores
-- 10 more at the end of the game.
local collected = {}
return {
  row_collected = function(t, seat, row, cards, specials, points)
    collected[seat] = (collected[seat] or 0) + 1
  end,
  final_score = function(t, seat, score)
    local most = 0
    for s = 0, t.seats - 1 do
      most = math.max(most, collected[s] or 0)
    end
    if most > 0 and collected[seat] == most then
      return score + 10
    end
  end,
}
