-- The anniversary variant over three rounds instead of two.
return {
  rounds = 3,
}
