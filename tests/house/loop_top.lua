-- An endless loop at the top level: loading the script must stop it.
while true do
end
