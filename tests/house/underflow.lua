-- A take worth the fewest points: the second one overflows below.
return {
  row_taken = function(t, seat, row, cards, bullheads)
    return -2147483648
  end,
}
