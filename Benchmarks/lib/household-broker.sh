# Sourced by Benchmarks/household.sh and Benchmarks/household-rooms.sh (with $work set): what both
# need to run bridges against one broker. A mosquitto configuration on a free-ish loopback port
# that logs every packet to $work/mosquitto.log (the scripts count PUBLISH lines in it), without
# persistence (each run starts empty); then small helpers for times and stored drinks.
port=$((20000 + RANDOM % 10000))
cat > "$work/mosquitto.conf" <<CONF
listener $port 127.0.0.1
allow_anonymous true
persistence false
log_dest file $work/mosquitto.log
log_type all
CONF
# mosquitto started as root drops to the user "mosquitto" unless told to stay root.
[ "$(id -u)" = 0 ] && echo "user root" >> "$work/mosquitto.conf"
now() { date +%s.%N; }
ms() { echo "($2 - $1) * 1000" | bc -l | cut -d. -f1; }
count() { sqlite3 "$1" "SELECT count(*) FROM drink" 2>/dev/null || echo 0; }
