"""A local HTTP server (127.0.0.1, in a thread) for download tests.

It serves byte strings registered by path and can misbehave on request: a
response shorter than its Content-Length, a chunked response whose
connection drops in the middle, a delay before answering, or an error
status. Every request is counted by path.
"""

import collections
import contextlib
import http.server
import threading
import time


class Files:
    """What the server serves: ``files[path] = (body, behaviour)``.

    Behaviours: ``'ok'``, ``'short'`` (announces more bytes than it sends,
    then closes), ``'drop'`` (chunked, drops the connection after the first
    chunk), ``('slow', seconds)`` (waits, then sends the body), an ``int``
    (that HTTP status, no body).
    """

    def __init__(self):
        self.files = {}
        self.requests = collections.Counter()
        self.lock = threading.Lock()

    def serve(self, path, body, behaviour='ok'):
        self.files[path] = (body, behaviour)


def _handler(files):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = 'HTTP/1.1'

        def log_message(self, *args):
            pass

        def do_GET(self):
            with files.lock:
                files.requests[self.path] += 1
            body, behaviour = files.files.get(self.path, (None, 404))
            if isinstance(behaviour, tuple) and behaviour[0] == 'slow':
                time.sleep(behaviour[1])
                behaviour = 'ok'
            if isinstance(behaviour, int):
                self.send_response(behaviour)
                self.send_header('Content-Length', '0')
                self.end_headers()
                return
            self.send_response(200)
            if behaviour == 'drop':
                self.send_header('Transfer-Encoding', 'chunked')
                self.end_headers()
                half = body[:len(body) // 2]
                self.wfile.write(b'%x\r\n%s\r\n' % (len(half), half))
                self.wfile.flush()
                self.close_connection = True
                return
            size = len(body) + (1000 if behaviour == 'short' else 0)
            self.send_header('Content-Length', str(size))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            self.close_connection = True

    return Handler


@contextlib.contextmanager
def running():
    """Runs a server; yields ``(base_url, files)``."""
    files = Files()
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                             _handler(files))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield 'http://127.0.0.1:{}'.format(server.server_address[1]), files
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
