package dev.seckill.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.remote.RemoteWebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * Debian's Chromium, headless, driven through Debian's ChromeDriver (never a downloaded one: this machine's network
 * reaches no browser vendor), both in one container of {@link Docker#CHROMIUM} per test JVM on the host's network:
 * chromedriver listens on a free port of 127.0.0.1, this JVM talks to it as a {@link RemoteWebDriver}, and the
 * browser reaches the instances and Nginx on 127.0.0.1 as it would on the machine. Each browser is a session of its
 * own, with a fresh profile. The flags are those Chromium needs as root in a closed network: without the
 * background-networking ones it keeps trying to reach Google's hosts.
 */
public final class Browser implements AutoCloseable {

    public static final Path SCREENSHOTS = Path.of("target", "screenshots");
    /** axe-core from its WebJar on the test classpath: injected by the test, never served by the instance. */
    private static final String AXE = "/META-INF/resources/webjars/axe-core/";

    private static HostContainer chromedriver;
    private static int chromedriverPort;

    private final RemoteWebDriver driver;

    private Browser(RemoteWebDriver driver) {
        this.driver = driver;
    }

    /** The Chromium image is there (scripts/test-services builds it); false, or one line saying why, if not. */
    public static boolean installed() {
        Docker.image(Docker.CHROMIUM);
        return true;
    }

    /** A browser window of {@code width} x {@code height} CSS pixels (390 x 844: a phone). */
    public static Browser start(int width, int height) {
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless=new",
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--window-size=" + width + "," + height);
        RemoteWebDriver driver = new RemoteWebDriver(chromedriver(), options, false);
        driver.manage().window().setSize(new Dimension(width, height));
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        return new Browser(driver);
    }

    /** chromedriver in its container, started on first use and kept for the run (Testcontainers removes it). */
    private static synchronized URL chromedriver() {
        try {
            if (chromedriver == null) {
                chromedriverPort = Nginx.freePort();
                HostContainer container = new HostContainer(Docker.CHROMIUM, "chromedriver :" + chromedriverPort)
                        .listeningOn(chromedriverPort).keptForTheRun()
                        .running("chromedriver", "--port=" + chromedriverPort, "--allowed-ips=", "--allowed-origins=*")
                        .withSharedMemorySize(512L * 1024 * 1024)
                        .waitingFor(Wait.forLogMessage(".*ChromeDriver was started successfully.*", 1));
                container.start();
                chromedriver = container;
            }
            return URI.create("http://127.0.0.1:" + chromedriverPort).toURL();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public RemoteWebDriver driver() {
        return driver;
    }

    public Browser open(String url) {
        driver.get(url);
        return this;
    }

    public WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    public List<WebElement> findAll(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    public WebDriverWait await(Duration timeout) {
        return new WebDriverWait(driver, timeout, Duration.ofMillis(100));
    }

    public Object script(String js, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(js, args);
    }

    /** Saves a screenshot under target/screenshots (the best go into docs/images by hand). */
    public Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path file = SCREENSHOTS.resolve(name + ".png");
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The page is no wider than the window: nothing to scroll sideways at phone width. */
    public boolean fitsWidth() {
        return (Boolean) script("return document.documentElement.scrollWidth <= window.innerWidth + 1;");
    }

    /** Every resource the page loaded that did not come from {@code origin} (e.g. http://127.0.0.1:8080). */
    @SuppressWarnings("unchecked")
    public List<String> resourcesNotFrom(String origin) {
        List<String> urls = (List<String>) script(
                "return performance.getEntriesByType('resource').map(function (e) { return e.name; });");
        return urls.stream().filter(url -> !url.startsWith(origin + "/")).toList();
    }

    /**
     * axe-core's violations of WCAG 2 A and AA on the page as it is now: "rule (impact): nodes" per line.
     * Empty when the page passes.
     */
    @SuppressWarnings("unchecked")
    public List<String> accessibilityViolations() {
        script(axeSource());
        Map<String, Object> result = (Map<String, Object>) ((JavascriptExecutor) driver).executeAsyncScript(
                "var done = arguments[arguments.length - 1];"
                        + "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
                        + ".then(function (r) { done({violations: r.violations.map(function (v) {"
                        + "  return v.id + ' (' + v.impact + '): ' + v.nodes.map(function (n) { return n.target.join(' '); }).join(', ');"
                        + "})}); }, function (e) { done({error: String(e)}); });");
        if (result.get("error") != null) {
            throw new IllegalStateException("axe-core failed: " + result.get("error"));
        }
        return new ArrayList<>((List<String>) result.get("violations"));
    }

    private static String axeSource() {
        try (InputStream version = Browser.class.getResourceAsStream("/META-INF/maven/org.webjars.npm/axe-core/pom.properties")) {
            java.util.Properties properties = new java.util.Properties();
            properties.load(version);
            try (InputStream axe = Browser.class.getResourceAsStream(AXE + properties.getProperty("version") + "/axe.min.js")) {
                return new String(axe.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("axe-core's WebJar is not on the test classpath", e);
        }
    }

    /** Ends the session: its Chromium and profile go; the chromedriver container stays for the next browser. */
    @Override
    public void close() {
        driver.quit();
    }
}
