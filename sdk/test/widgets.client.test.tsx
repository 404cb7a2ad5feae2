import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Modal, SearchInput } from '../src/client/widgets.tsx';

afterEach(cleanup);

describe('SearchInput', () => {
  it('does not search during IME composition and searches when it ends', () => {
    vi.useFakeTimers();
    const onSearch = vi.fn();
    render(<SearchInput onSearch={onSearch} debounceMs={0} data-testid="s" placeholder="search" />);
    const input = screen.getByPlaceholderText('search');
    fireEvent.compositionStart(input);
    fireEvent.change(input, { target: { value: 'zhong' } });
    fireEvent.change(input, { target: { value: 'zhongwen' } });
    expect(onSearch).not.toHaveBeenCalled();
    fireEvent.compositionEnd(input, { target: { value: '中文' } });
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenLastCalledWith('中文');
    fireEvent.change(input, { target: { value: '中文x' } });
    expect(onSearch).toHaveBeenLastCalledWith('中文x');
    vi.useRealTimers();
  });

  it('debounces typing', () => {
    vi.useFakeTimers();
    const onSearch = vi.fn();
    render(<SearchInput onSearch={onSearch} debounceMs={300} placeholder="search" />);
    const input = screen.getByPlaceholderText('search');
    fireEvent.change(input, { target: { value: 'a' } });
    fireEvent.change(input, { target: { value: 'ab' } });
    act(() => void vi.advanceTimersByTime(300));
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenCalledWith('ab');
    vi.useRealTimers();
  });
});

describe('Modal', () => {
  it('does not close on a click outside it', async () => {
    const onCancel = vi.fn();
    render(
      <Modal visible title="Dialog" onCancel={onCancel}>
        body
      </Modal>,
    );
    // Arco's Modal loads with the first dialog drawn.
    await screen.findByText('body');
    const mask = document.querySelector('.arco-modal-wrapper') ?? document.querySelector('.arco-modal-mask');
    expect(mask).toBeTruthy();
    fireEvent.click(mask!);
    expect(onCancel).not.toHaveBeenCalled();
    expect(screen.getByText('body')).toBeTruthy();
  });
});
