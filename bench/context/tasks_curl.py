"""The second task set: curl, a C tree, so that asrch's rules are not tuned to the stdlib.

Written and committed before either policy was run on it, as the first set was: no task
is added, dropped or reworded after looking at how a policy did. The tree is curl at one
pinned commit (`COMMIT`), fetched and checked out by hand (docs/context.md says how) and
never committed here; `answers` are resolved by `bench.context.spans` against that
commit, and each `witness` must be on the answer's lines, which checks that the tree is
the pinned one. Questions are what a maintainer new to curl might ask; candidates are the
terms an agent would type first, never the answer's identifier alone.
"""

from bench.context.tasks import Task

REPOSITORY = "curl/curl"
COMMIT = "5c61e168698a72b87437d58ed728bcdea6d5db42"
"""curl master of 2026-08-22 ("docs: make 5 example snippets compile cleanly with clang")."""

KINDS = ("definition", "call", "constant", "config", "error", "docs")

TASKS: tuple[Task, ...] = (
    Task(
        "cookie-max-age",
        "definition",
        "Where does libcurl parse the Max-Age attribute of a Set-Cookie header?",
        ("max-age", "Max-Age", "expires"),
        "lib/cookie.c:parse_maxage",
        "maxage",
    ),
    Task(
        "hsts-parse",
        "definition",
        "Where does libcurl parse a Strict-Transport-Security response header?",
        ("Strict-Transport-Security", "includeSubDomains", "max-age"),
        "lib/hsts.c:Curl_hsts_parse",
        "gotinc",
    ),
    Task(
        "keylog-env",
        "config",
        "Where does libcurl read the SSLKEYLOGFILE environment variable?",
        ("SSLKEYLOGFILE", "keylog", "getenv"),
        "lib/vtls/keylog.c:Curl_tls_keylog_open",
        "SSLKEYLOGFILE",
    ),
    Task(
        "max-redirects",
        "error",
        "Where does libcurl refuse to follow more redirects than allowed?",
        ("redirects followed", "maxredirs", "TOO_MANY_REDIRECTS"),
        "lib/http.c:Curl_http_follow",
        "Maximum (%d) redirects followed",
    ),
    Task(
        "chunk-hex-too-long",
        "error",
        "Where does the chunked transfer decoder reject an over-long chunk size?",
        ("hex-length", "CHUNK_MAXNUM_LEN", "chunk"),
        "lib/http_chunks.c:httpchunk_readwrite",
        "CHUNK_MAXNUM_LEN",
    ),
    Task(
        "strerror-resolve",
        "error",
        "Where is the message text for CURLE_COULDNT_RESOLVE_HOST?",
        ("Could not resolve host", "CURLE_COULDNT_RESOLVE_HOST", "strerror"),
        "lib/strerror.c:curl_easy_strerror",
        "Could not resolve hostname",
    ),
    Task(
        "curlrc-find",
        "config",
        "Where does the curl tool look for its .curlrc in the home directories?",
        (".curlrc", "XDG_CONFIG_HOME", "curlrc"),
        "src/tool_findfile.c:findfile",
        "conf_list",
    ),
    Task(
        "digest-header",
        "definition",
        "Where does libcurl build the HTTP Digest Authorization header value?",
        ("Digest", "response=", "digest"),
        "lib/vauth/digest.c:auth_create_digest_http_message",
        "response=",
    ),
    Task(
        "escape-unreserved",
        "definition",
        "Where does curl_easy_escape decide which characters to percent-encode?",
        ("curl_easy_escape", "%%%02X", "unreserved"),
        "lib/escape.c:curl_easy_escape",
        "ISUNRESERVED",
    ),
    Task(
        "base64-encode",
        "definition",
        "Where is libcurl's base64 encoder?",
        ("base64", "base64_encode", "table64"),
        "lib/curlx/base64.c:base64_encode",
        "table64",
    ),
    Task(
        "retry-dead-connection",
        "call",
        "Where does libcurl retry a request on a fresh connection when a reused one died?",
        ("retrying a fresh connect", "Connection died", "retry"),
        "lib/transfer.c:Curl_retry_request",
        "Connection died, retrying",
    ),
    Task(
        "netrc-login",
        "definition",
        "Where does libcurl find the login and password for a host in .netrc?",
        ("netrc", "machine", "login"),
        "lib/netrc.c:netrc_scan",
        "netrc_scan_end_entry",
    ),
    Task(
        "noproxy-match",
        "definition",
        "Where does libcurl decide that a host name matches the NO_PROXY list?",
        ("NO_PROXY", "no_proxy", "noproxy"),
        "lib/proxy.c:proxy_check_noproxy",
        "no_proxy",
    ),
    Task(
        "limit-rate-suffix",
        "definition",
        "Where does the curl tool parse the K/M/G suffix of --limit-rate?",
        ("limit-rate", "max-filesize", "suffix"),
        "src/tool_getparam.c:GetSizeParameter",
        "unit",
    ),
    Task(
        "expect-100-timeout",
        "config",
        "How long does libcurl wait for a 100-continue by default, and where is it set?",
        ("expect_100_timeout", "100-continue", "Expect:"),
        "lib/url.c@set->expect_100_timeout = 1000L;",
        "1000L",
    ),
    Task(
        "happy-eyeballs-default",
        "constant",
        "What is the default happy eyeballs timeout, and where is it defined?",
        ("happy_eyeballs", "HAPPY_EYEBALLS_TIMEOUT", "eyeballs"),
        "include/curl/curl.h:CURL_HET_DEFAULT",
        "200L",
    ),
    Task(
        "connect-timeout-default",
        "constant",
        "What is libcurl's default connect timeout?",
        ("connecttimeout", "connect timeout", "CONNECTTIMEOUT"),
        "lib/connect.h:DEFAULT_CONNECT_TIMEOUT",
        "300000",
    ),
    Task(
        "max-header-size",
        "constant",
        "What is the largest single HTTP header libcurl accepts?",
        ("MAX_HTTP_HEADER", "header size", "too large"),
        "include/curl/curl.h:CURL_MAX_HTTP_HEADER",
        "100 * 1024",
    ),
    Task(
        "speed-limit",
        "error",
        "Where does libcurl abort a transfer slower than --speed-limit for --speed-time?",
        ("Operation too slow", "low_speed_limit", "speed-limit"),
        "lib/progress.c:pgrs_speedcheck",
        "Operation too slow",
    ),
    Task(
        "guess-scheme",
        "definition",
        "Where does libcurl guess a URL's scheme from a host name like ftp.example.com?",
        ("ftp.", "guess", "DEFAULT_SCHEME"),
        "lib/urlapi.c:guess_scheme",
        '"ftp."',
    ),
    Task(
        "tool-retry-codes",
        "call",
        "Which HTTP status codes make `curl --retry` retry, in the tool's code?",
        ("--retry", "RETRY_HTTP", "429"),
        "src/tool_operate.c:retrycheck",
        "Too Many Requests",
    ),
    Task(
        "ca-bundle-env",
        "config",
        "Where does the curl tool read CURL_CA_BUNDLE and SSL_CERT_FILE?",
        ("CURL_CA_BUNDLE", "SSL_CERT_FILE", "cacert"),
        "src/tool_operate.c:cacertpaths",
        "SSL_CERT_FILE",
    ),
    Task(
        "connect-failed",
        "error",
        "Where does libcurl report 'Failed to connect to' a host?",
        ("Failed to connect to", "COULDNT_CONNECT", "connect"),
        "lib/cf-ip-happy.c:is_connected",
        "Failed to connect to",
    ),
    Task(
        "content-disposition",
        "definition",
        "Where does the curl tool take the output file name from Content-Disposition (-J)?",
        ("Content-Disposition", "filename=", "remote-header-name"),
        "src/tool_cb_hdr.c:content_disposition",
        "filename=",
    ),
    Task(
        "retry-docs",
        "docs",
        "Which HTTP response codes does the --retry documentation call transient?",
        ("--retry", "transient", "408"),
        "docs/cmdline-opts/retry.md@HTTP 408, 429, 500, 502, 503, 504",
        "408, 429",
    ),
    Task(
        "user-agent-default",
        "config",
        "What User-Agent does the curl tool send by default?",
        ("User-Agent", "useragent", "CURLOPT_USERAGENT"),
        'src/config2setopts.c@config->useragent : CURL_NAME "/" CURL_VERSION',
        "CURL_VERSION",
    ),
)
