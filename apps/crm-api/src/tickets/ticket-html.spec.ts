describe('ticket html', () => {
  it('loads sanitize-html at the first message, once, not when the module loads', () => {
    jest.isolateModules(() => {
      const loads = jest.fn();
      jest.doMock('sanitize-html', () => {
        loads();
        return jest.requireActual('sanitize-html');
      });
      const { plainText, sanitizedHtml } = require('./ticket-html') as typeof import('./ticket-html');
      expect(loads).not.toHaveBeenCalled();

      const html = sanitizedHtml('<p onclick="steal()">Hi <a href="javascript:alert(1)">there</a><script>steal()</script> <a href="https://example.com">link</a></p>');
      expect(html).toBe('<p>Hi <a rel="noopener noreferrer nofollow">there</a> <a href="https://example.com" rel="noopener noreferrer nofollow">link</a></p>');
      expect(plainText(html)).toBe('Hi there link');
      expect(loads).toHaveBeenCalledTimes(1);
    });
  });
});
