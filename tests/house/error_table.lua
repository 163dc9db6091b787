-- An error whose value is a table.
return {
  row_taken = function(t, seat, row, cards, bullheads)
    error({ code = 7 })
  end,
}
