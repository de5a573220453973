// Scanning a QR code with the camera where the browser can (BarcodeDetector): a [data-scan-into] button fills the named
// field of its form with what the camera reads and sends the form. Elsewhere the button stays hidden: typing works.
(() => {
  const buttons = document.querySelectorAll("[data-scan-into]");
  if (!buttons.length || !("BarcodeDetector" in window) || !navigator.mediaDevices) return;
  buttons.forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", async () => {
      const form = button.closest("form");
      const field = form.querySelector("[name='" + button.getAttribute("data-scan-into") + "']");
      let stream;
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
      } catch (error) {
        button.textContent = window.plazaSay("scan.no_camera");
        return;
      }
      const detector = new BarcodeDetector({ formats: ["qr_code"] });
      const video = document.createElement("video");
      video.className = "scanner";
      video.muted = true;
      video.setAttribute("playsinline", "");
      video.srcObject = stream;
      button.after(video);
      const stop = () => { stream.getTracks().forEach((track) => track.stop()); video.remove(); };
      await video.play();
      const look = async () => {
        if (!video.isConnected) return;
        const codes = await detector.detect(video).catch(() => []);
        if (codes.length) {
          field.value = codes[0].rawValue;
          stop();
          form.requestSubmit();
          return;
        }
        requestAnimationFrame(look);
      };
      look();
    });
  });
})();
