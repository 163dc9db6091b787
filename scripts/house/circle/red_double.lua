-- The circle game where red cards cost double, as a setting: a collected row's red bullheads
-- count twice (its green ones once).
return {
  red_multiplier = 2,
}
