-- A pattern whose matching backtracks for hours in Lua's C matcher.
return {
  row_taken = function(t, seat, row, cards, bullheads)
    return #cards + (string.find(string.rep("a", 100000), ".-.-.-b") or 0)
  end,
}
