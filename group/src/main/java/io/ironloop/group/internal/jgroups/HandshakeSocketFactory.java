package io.ironloop.group.internal.jgroups;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import org.jgroups.util.DefaultSocketFactory;

/**
 * JGroups socket factory whose TCP sockets run the {@link SecretHandshake} right after connecting, and
 * whose server sockets hand JGroups only connections that passed it.
 */
final class HandshakeSocketFactory extends DefaultSocketFactory {
    private final SecretHandshake handshake;

    HandshakeSocketFactory(SecretHandshake handshake) {
        this.handshake = handshake;
    }

    @Override
    public Socket createSocket(String service) {
        return new AuthenticatingSocket();
    }

    @Override
    public Socket createSocket(String service, String host, int port) throws IOException {
        Socket s = new AuthenticatingSocket();
        s.connect(new InetSocketAddress(host, port));
        return s;
    }

    @Override
    public Socket createSocket(String service, InetAddress host, int port) throws IOException {
        Socket s = new AuthenticatingSocket();
        s.connect(new InetSocketAddress(host, port));
        return s;
    }

    @Override
    public Socket createSocket(String service, String host, int port, InetAddress localHost, int localPort) throws IOException {
        Socket s = new AuthenticatingSocket();
        s.bind(new InetSocketAddress(localHost, localPort));
        s.connect(new InetSocketAddress(host, port));
        return s;
    }

    @Override
    public Socket createSocket(String service, InetAddress host, int port, InetAddress localHost, int localPort) throws IOException {
        Socket s = new AuthenticatingSocket();
        s.bind(new InetSocketAddress(localHost, localPort));
        s.connect(new InetSocketAddress(host, port));
        return s;
    }

    @Override
    public ServerSocket createServerSocket(String service) throws IOException {
        return new AuthenticatingServerSocket();
    }

    @Override
    public ServerSocket createServerSocket(String service, int port) throws IOException {
        return createServerSocket(service, port, 50, null);
    }

    @Override
    public ServerSocket createServerSocket(String service, int port, int backlog) throws IOException {
        return createServerSocket(service, port, backlog, null);
    }

    @Override
    public ServerSocket createServerSocket(String service, int port, int backlog, InetAddress bindAddress) throws IOException {
        ServerSocket s = new AuthenticatingServerSocket();
        s.bind(new InetSocketAddress(bindAddress, port), backlog);
        return s;
    }

    /** Writes its proof when connected; checks the server's proof on the first read, in the reading thread. */
    private final class AuthenticatingSocket extends Socket {
        private final byte[] nonce = handshake.clientNonce();
        private java.io.InputStream verified;

        @Override
        public void connect(SocketAddress endpoint, int timeout) throws IOException {
            super.connect(endpoint, timeout);
            try {
                handshake.clientHello(this, nonce);
            } catch (IOException e) {
                close();
                throw e;
            }
        }

        @Override
        public synchronized java.io.InputStream getInputStream() throws IOException {
            if (verified == null) {
                java.io.InputStream raw = super.getInputStream();
                SocketAddress peer = getRemoteSocketAddress();
                verified = new java.io.FilterInputStream(raw) {
                    private boolean checked;

                    private void check() throws IOException {
                        if (!checked) {
                            try {
                                handshake.verifyServer(raw, nonce, peer);
                            } catch (IOException e) {
                                AuthenticatingSocket.this.close();
                                throw e;
                            }
                            checked = true;
                        }
                    }

                    @Override
                    public int read() throws IOException {
                        check();
                        return super.read();
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        check();
                        return super.read(b, off, len);
                    }

                    @Override
                    public int available() throws IOException {
                        return checked ? super.available() : 0;
                    }
                };
            }
            return verified;
        }
    }

    private final class AuthenticatingServerSocket extends ServerSocket {
        AuthenticatingServerSocket() throws IOException {
            super();
        }

        @Override
        public Socket accept() throws IOException {
            while (true) {
                Socket s = super.accept();
                if (handshake.asServer(s)) {
                    return s;
                }
                try {
                    s.close();
                } catch (IOException ignored) {
                    // already closed by the peer
                }
            }
        }
    }
}
