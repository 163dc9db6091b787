-- The anniversary variant with two special cards per seat and round, and no swapping after a
-- take.
return {
  specials_dealt = 2,
  swapping = false,
}
