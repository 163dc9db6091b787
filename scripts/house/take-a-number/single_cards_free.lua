-- Taking a row of one card is free: its bullheads are taken off the round's score (the card
-- itself still goes to the #-row).
return {
  row_taken = function(t, seat, row, cards, bullheads)
    if #cards == 1 then
      return 0
    end
  end,
}
