-- The anniversary variant without Shift: the special deck holds 24 cards, no Shift among them.
return {
  specials = { shift = 0 },
}
