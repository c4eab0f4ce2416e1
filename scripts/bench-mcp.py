#!/usr/bin/env python3
"""bench-mcp.py: pitool mcp's answers against the commands they stand for, on one folder.

usage: scripts/bench-mcp.py PITOOL DIR PATTERN [ROUNDS]

Starts `PITOOL mcp DIR` under GNU time, speaks MCP to it over stdio, and times ROUNDS
(default 3) calls of list_sessions and of search_sessions PATTERN (each the first page: what
an agent asks first), then three pages of read_session latest (the first; the second, which
renders the whole transcript for the cache; the third, cut from it), then closes stdin and
reads the server's peak RSS. Then times `PITOOL ls
DIR --json` and `PITOOL search -c PATTERN DIR` the same number of times, with their peak RSS.
Prints median wall seconds and the largest RSS of each.
"""
import json, os, statistics, subprocess, sys, tempfile, time

def timed(argv):
    with tempfile.NamedTemporaryFile("r") as t:
        start = time.monotonic()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.monotonic() - start
        return wall, int(t.read().split()[-1])

class Server:
    def __init__(self, pitool, folder, rss_file):
        self.p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss_file, pitool, "mcp", folder],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.n = 0
        self.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()

    def call(self, method, params):
        self.n += 1
        self.send({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params})
        while True:
            msg = json.loads(self.p.stdout.readline())
            if msg.get("id") == self.n:
                if "error" in msg or msg.get("result", {}).get("isError"):
                    sys.exit("bench-mcp: %s: %s" % (method, msg))
                return msg["result"]

    def tool(self, name, args):
        start = time.monotonic()
        self.call("tools/call", {"name": name, "arguments": args})
        return time.monotonic() - start

    def close(self):
        self.p.stdin.close()
        self.p.wait()

def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    pitool, folder, pattern = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    with tempfile.NamedTemporaryFile("r") as rss:
        s = Server(pitool, folder, rss.name)
        lists = [s.tool("list_sessions", {}) for _ in range(rounds)]
        searches = [s.tool("search_sessions", {"pattern": pattern}) for _ in range(rounds)]
        first = s.tool("read_session", {"session": "latest"})
        second = s.tool("read_session", {"session": "latest", "offset": 16000})
        third = s.tool("read_session", {"session": "latest", "offset": 32000})
        s.close()
        server_rss = int(rss.read().split()[-1])
    ls = [timed([pitool, "ls", folder, "--json"]) for _ in range(rounds)]
    search = [timed([pitool, "search", "-c", pattern, folder]) for _ in range(rounds)]
    print("%-38s %8s %10s" % ("", "median s", "peak RSS"))
    print("%-38s %8.2f %10s" % ("mcp list_sessions (first page)", statistics.median(lists), ""))
    print("%-38s %8.2f %10s" % ("mcp search_sessions (first page)", statistics.median(searches), ""))
    print("%-38s %8.2f %10s" % ("mcp read_session latest, first page", first, ""))
    print("%-38s %8.2f %10s" % ("  second page (renders it all, cached)", second, ""))
    print("%-38s %8.2f %10s" % ("  third page (from the cache)", third, ""))
    print("%-38s %8s %7d KB" % ("mcp server, whole session of calls", "", server_rss))
    print("%-38s %8.2f %7d KB" % ("pitool ls --json", statistics.median(w for w, _ in ls), max(r for _, r in ls)))
    print("%-38s %8.2f %7d KB" % ("pitool search -c", statistics.median(w for w, _ in search), max(r for _, r in search)))

main()
