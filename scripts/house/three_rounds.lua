-- A short game: exactly three rounds, whatever the scores.
return {
  rounds = 3,
}
