package dev.seckill.web;

import dev.seckill.InstanceIdentity;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/** Puts {@link ProblemErrorReportValve} in place of the error page Tomcat (and Spring Boot) would use. */
@Component
class TomcatProblemPages implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    private final String instanceId;

    TomcatProblemPages(InstanceIdentity identity) {
        this.instanceId = identity.instanceId();
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                for (Valve valve : host.getPipeline().getValves()) {
                    if (valve instanceof ErrorReportValve) {
                        host.getPipeline().removeValve(valve);
                    }
                }
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
                host.getPipeline().addValve(new ProblemErrorReportValve(instanceId));
            }
        });
    }
}
