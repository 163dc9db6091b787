-- Tries to run a command.
os.execute("touch take5-house-pwned")
return {}
