#!/usr/bin/python3
# A real RTSP camera on 127.0.0.1 for LiteVision's tests and benchmarks (RTSPTestServer, scripts/bench-streams.sh):
# GStreamer's RTSP server serving the H.264 video of an MP4 file on one mount, at real-time pace, over RTP on TCP
# or UDP. Run with Debian's /usr/bin/python3 (python3-gi).
#   rtsp-test-server.py CLIP MOUNT PORT USER PASSWORD RETRY_SECONDS
# PORT 0 picks a free port; an empty USER means no authentication. Prints the port once it listens; exits when
# its standard input closes.
import os, sys, threading, time
def missing(package, what):
    sys.stderr.write(f"the Debian package {package} is missing ({what}): run scripts/setup.sh --dev\n")
    sys.exit(3)
try:
    import gi
except ImportError:
    missing("python3-gi", "Python's GObject introspection, gi, for /usr/bin/python3")
try:
    gi.require_version("Gst", "1.0")
    gi.require_version("GstRtsp", "1.0")
    gi.require_version("GstRtspServer", "1.0")
    from gi.repository import GLib, Gst, GstRtsp, GstRtspServer
except (ImportError, ValueError):
    missing("gir1.2-gst-rtsp-server-1.0", "GStreamer's RTSP server for Python")
Gst.init(None)
for element, package in [("filesrc", "libgstreamer1.0-0"), ("qtdemux", "gstreamer1.0-plugins-good"),
                         ("h264parse", "gstreamer1.0-plugins-bad"), ("rtph264pay", "gstreamer1.0-plugins-good"),
                         ("rtpbin", "gstreamer1.0-plugins-good"), ("udpsrc", "gstreamer1.0-plugins-good"),
                         ("appsink", "gstreamer1.0-plugins-base")]:
    if Gst.ElementFactory.find(element) is None:
        missing(package, f"the GStreamer element {element}")
clip, mount, port, user, password, retry = sys.argv[1:7]
# Exit when the test closes our standard input (or dies).
threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
server = GstRtspServer.RTSPServer()
server.set_address("127.0.0.1")
server.set_service(port)  # GstRTSPServer binds with SO_REUSEADDR: a port in TIME_WAIT is reusable
factory = GstRtspServer.RTSPMediaFactory()
location = clip.replace("\\", "\\\\").replace('"', '\\"')
factory.set_launch(f'( filesrc location="{location}" ! qtdemux ! h264parse '
                   f'! rtph264pay name=pay0 pt=96 config-interval=1 )')
factory.set_protocols(GstRtsp.RTSPLowerTrans.TCP | GstRtsp.RTSPLowerTrans.UDP)
if user:
    auth = GstRtspServer.RTSPAuth()
    token = GstRtspServer.RTSPToken()
    token.set_string("media.factory.role", "viewer")
    auth.add_basic(GstRtspServer.RTSPAuth.make_basic(user, password), token)
    server.set_auth(auth)
    permissions = GstRtspServer.RTSPPermissions()
    permissions.add_permission_for_role("viewer", "media.factory.access", True)
    permissions.add_permission_for_role("viewer", "media.factory.construct", True)
    factory.set_permissions(permissions)
server.get_mount_points().add_factory(mount, factory)
deadline = time.monotonic() + float(retry)
while True:
    try:
        if server.attach(None) != 0:
            break
        reason = "the port is taken"
    except GLib.Error as error:
        reason = error.message
    if time.monotonic() > deadline:
        sys.stderr.write(f"cannot listen on 127.0.0.1:{port} ({reason}) for {retry} s\n")
        sys.stderr.flush()
        os._exit(4)
    time.sleep(0.2)
print(server.get_bound_port(), flush=True)
GLib.MainLoop().run()
