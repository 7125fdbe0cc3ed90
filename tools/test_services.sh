# Sourced by test.sh: PostgreSQL and Redis for the tests that run on them.
#
# The tests use the servers at their standard local ports (PostgreSQL on 127.0.0.1:5432 with trust
# authentication and a database `test`; Redis on 127.0.0.1:6379).  Where one does not answer (a
# fresh machine), Debian's package is installed and a throwaway instance is started in a temporary
# folder on a free port; it is stopped when the tests end.  Either way the tests find the servers
# in CRIBBAGE_TEST_POSTGRES and CRIBBAGE_TEST_REDIS.  CRIBBAGE_THROWAWAY_SERVICES=1 starts
# throwaway instances even where the standard ones answer (to check this script).

_services_dir=""

_answers() {  # host port: whether something listens there
    python3 - "$1" "$2" <<'EOF'
import socket, sys
try:
    socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=1).close()
except OSError:
    sys.exit(1)
EOF
}

_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

_apt_install() {  # packages...
    if command -v apt-get >/dev/null; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@") >/dev/null 2>&1 \
            || echo "could not install $*" >&2
    fi
}

_services_folder() {
    if [ -z "$_services_dir" ]; then
        _services_dir="$(mktemp -d /tmp/cribbage-test-services.XXXXXX)"
        chmod 755 "$_services_dir"
        trap _stop_services EXIT
    fi
}

_stop_services() {
    if [ -n "$_services_dir" ]; then
        if [ -f "$_services_dir/pg/postmaster.pid" ]; then
            runuser -u postgres -- "$_pg_bin/pg_ctl" -D "$_services_dir/pg" -m immediate stop >/dev/null 2>&1 || true
        fi
        if [ -f "$_services_dir/redis.pid" ]; then
            kill "$(cat "$_services_dir/redis.pid")" 2>/dev/null || true
        fi
        rm -rf "$_services_dir"
    fi
}

_start_postgres() {
    if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
        _apt_install postgresql
    fi
    _pg_bin="$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")"
    _services_folder
    local port data
    port="$(_free_port)"
    data="$_services_dir/pg"
    mkdir -p "$data" && chown postgres "$data"
    runuser -u postgres -- "$_pg_bin/initdb" -D "$data" -A trust -U postgres >/dev/null
    runuser -u postgres -- "$_pg_bin/pg_ctl" -D "$data" -l "$data/log" -w \
        -o "-p $port -k $data -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
    runuser -u postgres -- "$_pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres test
    export CRIBBAGE_TEST_POSTGRES="postgresql+psycopg://postgres@127.0.0.1:$port/test"
    echo "throwaway PostgreSQL on port $port"
}

_start_redis() {
    if ! command -v redis-server >/dev/null; then
        _apt_install redis-server
    fi
    _services_folder
    local port
    port="$(_free_port)"
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
        --dir "$_services_dir" --pidfile "$_services_dir/redis.pid" >/dev/null
    for _ in $(seq 50); do _answers 127.0.0.1 "$port" && break; sleep 0.1; done
    export CRIBBAGE_TEST_REDIS="redis://127.0.0.1:$port/0"
    echo "throwaway Redis on port $port"
}

if [ "${CRIBBAGE_THROWAWAY_SERVICES:-0}" != 1 ] && _answers 127.0.0.1 5432; then
    export CRIBBAGE_TEST_POSTGRES="${CRIBBAGE_TEST_POSTGRES:-postgresql+psycopg://postgres@127.0.0.1:5432/test}"
else
    _start_postgres
fi
if [ "${CRIBBAGE_THROWAWAY_SERVICES:-0}" != 1 ] && _answers 127.0.0.1 6379; then
    export CRIBBAGE_TEST_REDIS="${CRIBBAGE_TEST_REDIS:-redis://127.0.0.1:6379/0}"
else
    _start_redis
fi
