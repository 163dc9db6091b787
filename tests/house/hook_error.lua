-- A hook with a bug: cards is a sequence, cards.top is nil.
return {
  row_taken = function(t, seat, row, cards, bullheads)
    return cards.top.bullheads
  end,
}
