-- The #-pile counts its cards' bullheads once, not twice: when a #-row goes to the #-pile, the
-- hook answers half of the points the rules would count for it.
return {
  hash_pile = function(t, seat, cards, points)
    return points // 2
  end,
}
