import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.Server;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts Amazon's DynamoDB Local bound to 127.0.0.1 only. Its own main builds a Jetty server
 * with `new Server(port)`, which listens on every interface and has no option to change that;
 * this builds the same server from the same command line, sets each connector's host to the
 * loopback address before starting it, and otherwise behaves exactly like DynamoDBLocal.jar.
 * Run with Java's single-file source launcher: `java -cp <jar>:<lib>/* LoopbackDynamoDbLocal.java …`.
 */
public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) {
      ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
    proxy.join();
  }
}
