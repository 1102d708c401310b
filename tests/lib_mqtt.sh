# Shared by the MQTT tests and benchmarks (sourced, not run): a real
# mosquitto on loopback ports with a password file, an ACL and TLS, in a
# scratch folder. Needs $tmp (lib_e2e.sh) or sets MQTT_DIR.
#
#   mqtt_need               exit 77 with a message when mosquitto,
#                           mosquitto_passwd or openssl are absent
#   mqtt_setup DIR N        users b01..bN (password pw-bNN), director
#                           (password pw-director), intruder (pw-intruder);
#                           the ACL; a CA and the broker's certificates; ports
#                           in MQTT_PORT (plain), MQTT_TLS_PORT (TLS, the
#                           certificate for 127.0.0.1) and MQTT_TLS_NAME_PORT
#                           (TLS on 127.0.0.1, the certificate for the name
#                           localhost only)
#   mqtt_start / mqtt_kill  the broker (SIGKILL: no goodbye, no last save)
#   mqtt_stop               SIGTERM

mqtt_need() {
	local p
	for p in mosquitto mosquitto_passwd openssl; do
		if ! command -v "$p" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$p" ]; then
			echo "SKIP: $p is not installed (Debian: mosquitto, openssl; ./install-deps.sh)"
			exit 77
		fi
	done
}

mqtt_bin() { command -v "$1" 2>/dev/null || echo "/usr/sbin/$1"; }

# a free TCP port on 127.0.0.1
mqtt_free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

mqtt_setup() {
	MQTT_DIR=$1
	local n=$2 i id
	mkdir -p "$MQTT_DIR/store"
	: >"$MQTT_DIR/passwd"
	chmod 600 "$MQTT_DIR/passwd"
	for i in $(seq 1 "$n"); do
		id=$(printf 'b%02d' "$i")
		"$(mqtt_bin mosquitto_passwd)" -b "$MQTT_DIR/passwd" "$id" "pw-$id" || return 1
	done
	"$(mqtt_bin mosquitto_passwd)" -b "$MQTT_DIR/passwd" director pw-director || return 1
	"$(mqtt_bin mosquitto_passwd)" -b "$MQTT_DIR/passwd" intruder pw-intruder || return 1
	# A board (user = its id) writes its own events, position and status and
	# reads its own control and resend topics; any user writes control
	# messages only under its own name; the director reads the hall and asks
	# for resends.
	cat >"$MQTT_DIR/acl" <<-EOF
	pattern write goref/+/%u/events
	pattern write goref/+/%u/position
	pattern write goref/+/%u/status
	pattern read goref/+/%u/control/#
	pattern read goref/+/%u/resend
	pattern write goref/+/+/control/%u
	user director
	topic read goref/#
	topic write goref/+/+/resend
	EOF
	# TLS: a CA and the broker's certificate for 127.0.0.1
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=goref test CA" \
		-keyout "$MQTT_DIR/ca.key" -out "$MQTT_DIR/ca.crt" >/dev/null 2>&1 || return 1
	openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
		-keyout "$MQTT_DIR/server.key" -out "$MQTT_DIR/server.csr" >/dev/null 2>&1 || return 1
	printf 'subjectAltName=IP:127.0.0.1\n' >"$MQTT_DIR/san.ext"
	openssl x509 -req -in "$MQTT_DIR/server.csr" -CA "$MQTT_DIR/ca.crt" -CAkey "$MQTT_DIR/ca.key" \
		-CAcreateserial -days 2 -extfile "$MQTT_DIR/san.ext" -out "$MQTT_DIR/server.crt" >/dev/null 2>&1 || return 1
	# and one for the name localhost only (a client must check it against the
	# name it was given, not an address)
	openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" \
		-keyout "$MQTT_DIR/name.key" -out "$MQTT_DIR/name.csr" >/dev/null 2>&1 || return 1
	printf 'subjectAltName=DNS:localhost\n' >"$MQTT_DIR/name.ext"
	openssl x509 -req -in "$MQTT_DIR/name.csr" -CA "$MQTT_DIR/ca.crt" -CAkey "$MQTT_DIR/ca.key" \
		-CAcreateserial -days 2 -extfile "$MQTT_DIR/name.ext" -out "$MQTT_DIR/name.crt" >/dev/null 2>&1 || return 1
	MQTT_PORT=$(mqtt_free_port)
	MQTT_TLS_PORT=$(mqtt_free_port)
	MQTT_TLS_NAME_PORT=$(mqtt_free_port)
	cat >"$MQTT_DIR/mosquitto.conf" <<-EOF
	user $(id -un)
	per_listener_settings false
	allow_anonymous false
	password_file $MQTT_DIR/passwd
	acl_file $MQTT_DIR/acl
	persistence true
	persistence_location $MQTT_DIR/store/
	autosave_interval 1
	max_queued_messages 100000
	log_dest file $MQTT_DIR/broker.log
	log_type error
	log_type warning
	log_type notice
	log_type information
	listener $MQTT_PORT 127.0.0.1
	listener $MQTT_TLS_PORT 127.0.0.1
	cafile $MQTT_DIR/ca.crt
	certfile $MQTT_DIR/server.crt
	keyfile $MQTT_DIR/server.key
	listener $MQTT_TLS_NAME_PORT 127.0.0.1
	cafile $MQTT_DIR/ca.crt
	certfile $MQTT_DIR/name.crt
	keyfile $MQTT_DIR/name.key
	EOF
}

mqtt_start() {
	"$(mqtt_bin mosquitto)" -c "$MQTT_DIR/mosquitto.conf" >>"$MQTT_DIR/broker.out" 2>&1 &
	MQTT_PID=$!
	# ready when the port takes a connection
	local k
	for k in $(seq 1 100); do
		if python3 -c "import socket,sys; s=socket.socket(); s.settimeout(0.2); sys.exit(s.connect_ex(('127.0.0.1', $MQTT_PORT)))" 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	echo "the broker did not start:"
	cat "$MQTT_DIR/broker.out" "$MQTT_DIR/broker.log" 2>/dev/null | tail -20
	return 1
}

mqtt_kill() {
	[ -n "${MQTT_PID:-}" ] && kill -9 "$MQTT_PID" 2>/dev/null && wait "$MQTT_PID" 2>/dev/null
	MQTT_PID=
}

mqtt_stop() {
	[ -n "${MQTT_PID:-}" ] && kill "$MQTT_PID" 2>/dev/null && wait "$MQTT_PID" 2>/dev/null
	MQTT_PID=
}
