-- Every card is worth one bullhead: the score counts the cards taken.
return {
  bullheads = function(card)
    return 1
  end,
}
