-- Rows cost nothing and the game goes to a score no one reaches.
return {
  target_score = 2147483647,
  row_taken = function(t, seat, row, cards, bullheads)
    return 0
  end,
}
